/**
 * What some tests need beyond this repository: `../shared` (the corpus, msgcat vectors, Unicode
 * data) and GNU gettext's `msgcat`. A test that cannot run without them is registered with
 * `ignore: lacks(import.meta.url, …)`, so Deno's summary counts it as ignored, not passed, and one
 * line per test file says what is missing.
 *
 * @module
 */

/** `../shared` beside the repository (present on CI and developer machines, absent on a user's clone). */
const SHARED_DIR = new URL("../../shared/", import.meta.url);

/** True when `../shared` exists. */
export const HAS_SHARED: boolean = (() => {
  try {
    return Deno.statSync(SHARED_DIR).isDirectory;
  } catch {
    return false;
  }
})();

/** True when `command --version` runs and succeeds (the tool is installed). */
export function runs(command: string): boolean {
  try {
    return new Deno.Command(command, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

/** True when GNU `msgcat` runs (gettext installed). */
export const HAS_MSGCAT: boolean = runs("msgcat");

/** True when GNU `msgfmt` runs (gettext installed). */
export const HAS_MSGFMT: boolean = runs("msgfmt");

/** True when GNU `patch` runs (an independent check that a diff applies). */
export const HAS_PATCH: boolean = runs("patch");

/** True when GNU `diff` runs (an independent count of changed lines). */
export const HAS_DIFF: boolean = runs("diff");

/**
 * `../shared/tools/gettext-0.23`, which runs GNU gettext 0.23.1 (Debian trixie's) in a tree it built
 * once as root: true when the tree is built and we may enter it (root).
 */
export const HAS_GETTEXT_023: boolean = (() => {
  try {
    const root = Deno.env.get("GETTEXT23_ROOT") ?? "/opt/gettext-0.23";
    return Deno.statSync(new URL("tools/gettext-0.23", SHARED_DIR)).isFile &&
      Deno.statSync(`${root}/usr/bin/msgcat`).isFile && Deno.uid() === 0;
  } catch {
    return false;
  }
})();

/** Chromium for the browser tests (`apt-get install chromium`), or null when there is none. */
export const CHROMIUM: string | null = (() => {
  for (const path of ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not there
    }
  }
  return null;
})();

/**
 * Chromium's flags for tests on this closed network: no sandbox (root in CI), no GPU, and none of the
 * background connections (updates, sync, QUIC) it would otherwise try, and fail, at every start.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A prerequisite a test may lack. */
export type Prerequisite = "shared" | "msgcat" | "patch" | "diff" | "chromium" | "gettext-0.23";

const DESCRIBED: Record<Prerequisite, [boolean, string]> = {
  shared: [HAS_SHARED, "../shared (the corpus; absent from a plain clone)"],
  msgcat: [HAS_MSGCAT, "msgcat (apt-get install gettext)"],
  patch: [HAS_PATCH, "GNU patch (apt-get install patch)"],
  diff: [HAS_DIFF, "GNU diff (apt-get install diffutils)"],
  chromium: [CHROMIUM !== null, "Chromium (apt-get install chromium)"],
  "gettext-0.23": [
    HAS_GETTEXT_023,
    "gettext 0.23.1 (as root: bash ../shared/tools/gettext-0.23 --version builds /opt/gettext-0.23)",
  ],
};

const told = new Set<string>();

/**
 * True (ignore the test) when any of `needs` is missing; then prints, once per test file and
 * missing set, `not run in FILE: tests that need X (not found) are ignored`.
 *
 * @example
 * ```ts
 * Deno.test("output equals msgcat's", { ignore: lacks(import.meta.url, "msgcat") }, () => {});
 * ```
 */
export function lacks(file: string, ...needs: Prerequisite[]): boolean {
  const missing = needs.filter((n) => !DESCRIBED[n][0]).map((n) => DESCRIBED[n][1]);
  if (missing.length === 0) return false;
  const name = file.slice(file.lastIndexOf("/") + 1);
  const line = `not run in ${name}: tests that need ${missing.join(" and ")} are ignored (not found)`;
  if (!told.has(line)) {
    told.add(line);
    console.log(line);
  }
  return true;
}
