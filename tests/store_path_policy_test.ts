/**
 * The path policy against a real file system: syntax, `..`, symlinks out of the root (file and
 * directory), a symlinked root, missing files and directories, non-regular files, size; then the
 * same policy inside a child process sandboxed to the root's configured spelling.
 */
import assert from "node:assert/strict";
import { InvalidInputError, NotFoundError, OutsideRootsError, TooLargeError } from "../lib/errors.ts";
import { type PathPolicyOptions, resolveCataloguePath } from "../lib/store/path_policy.ts";
import { lineFile, spawnStoreChild } from "./_store_writer_child.ts";

interface PolicyFixture extends AsyncDisposable {
  base: string;
  root: string;
  outside: string;
  rootLink: string;
  fifo: boolean;
  device: boolean;
  socket: boolean;
}

/** A temp tree: root/ (the catalogue root), outside/, rootlink -> root, and odd files in root. */
/** Runs a helper program; false when it fails or is not installed (spawning can throw synchronously). */
async function tryRun(command: string, args: string[]): Promise<boolean> {
  try {
    return (await new Deno.Command(command, { args, stdout: "null", stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

async function policyFixture(): Promise<PolicyFixture> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "store_policy_" }));
  const root = `${base}/root`;
  const outside = `${base}/outside`;
  const rootLink = `${base}/rootlink`;
  await Deno.mkdir(`${root}/sub`, { recursive: true });
  await Deno.mkdir(outside);
  await Deno.writeFile(`${root}/ok.po`, lineFile(["a"]));
  await Deno.writeFile(`${root}/sub/deep.pot`, lineFile(["b"]));
  await Deno.writeFile(`${root}/big.po`, new Uint8Array(2000).fill(65));
  await Deno.writeFile(`${outside}/secret.po`, lineFile(["secret"]));
  await Deno.symlink(`${outside}/secret.po`, `${root}/link_out.po`);
  await Deno.symlink(outside, `${root}/linkdir`);
  await Deno.symlink("ok.po", `${root}/link_in.po`);
  await Deno.symlink("/dev/null", `${root}/devnull.po`);
  await Deno.symlink(root, rootLink);
  await Deno.mkdir(`${root}/dir.po`);
  const fifo = await tryRun("mkfifo", [`${root}/fifo.po`]);
  // Creating a device node needs root; elsewhere that case is reported as not run.
  const device = await tryRun("mknod", [`${root}/null.po`, "c", "1", "3"]);
  // A unix socket file (Deno.listen would need net permission and unlinks it on close).
  const socket = await tryRun("python3", [
    "-c",
    "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])",
    `${root}/sock.po`,
  ]);
  return {
    base,
    root,
    outside,
    rootLink,
    fifo,
    device,
    socket,
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true });
    },
  };
}

type Expect =
  | { error: new (...args: never[]) => Error; message: string }
  | { lexicalPath: string; realPath: string; exists: boolean };

interface Case {
  name: string;
  path: unknown;
  expect: Expect;
  options?: Partial<PathPolicyOptions>;
  roots?: string[];
  when?: boolean;
}

function cases(f: PolicyFixture): Case[] {
  const { root, outside, rootLink } = f;
  const outsideMsg = (p: string, roots = [root]) =>
    `Path is outside the catalogue roots (${roots.join(", ")}): ${p}`;
  const read = { mustExist: true };
  const write = { mustExist: false };
  return [
    {
      name: "a relative path is malformed",
      path: "fr/ok.po",
      expect: { error: InvalidInputError, message: "Invalid file path: must be absolute: fr/ok.po" },
    },
    {
      name: "a path starting with - is malformed (not absolute)",
      path: "-rf.po",
      expect: { error: InvalidInputError, message: "Invalid file path: must be absolute: -rf.po" },
    },
    {
      name: "a non-string is malformed",
      path: 42,
      expect: { error: InvalidInputError, message: "Invalid file path: expected a string" },
    },
    {
      name: "an empty path is malformed",
      path: "",
      expect: { error: InvalidInputError, message: "Invalid file path: must not be empty" },
    },
    {
      name: "a NUL byte is malformed",
      path: `${root}/a\0.po`,
      expect: {
        error: InvalidInputError,
        message: `Invalid file path: contains a NUL byte: ${JSON.stringify(`${root}/a\0.po`)}`,
      },
    },
    {
      name: "a name without .po/.pot is malformed",
      path: `${root}/ok.txt`,
      expect: {
        error: InvalidInputError,
        message: `Invalid file path: must end in .po or .pot: ${root}/ok.txt`,
      },
    },
    {
      name: "a bare '.po' name is malformed",
      path: `${root}/.po`,
      expect: {
        error: InvalidInputError,
        message: `Invalid file path: must end in .po or .pot: ${root}/.po`,
      },
    },
    {
      name: "a trailing slash is malformed",
      path: `${root}/ok.po/`,
      expect: {
        error: InvalidInputError,
        message: `Invalid file path: must end in .po or .pot: ${root}/ok.po/`,
      },
    },
    {
      name: "the store's lock file cannot be addressed",
      path: `${root}/.ok.po.lock`,
      expect: {
        error: InvalidInputError,
        message: `Invalid file path: must end in .po or .pot: ${root}/.ok.po.lock`,
      },
    },
    {
      name: "a .po file in the root resolves",
      path: `${root}/ok.po`,
      expect: { lexicalPath: `${root}/ok.po`, realPath: `${root}/ok.po`, exists: true },
    },
    {
      name: "a .pot file in a subdirectory resolves",
      path: `${root}/sub/deep.pot`,
      expect: { lexicalPath: `${root}/sub/deep.pot`, realPath: `${root}/sub/deep.pot`, exists: true },
    },
    {
      name: ".. that stays inside the root is normalised",
      path: `${root}/sub/../ok.po`,
      expect: { lexicalPath: `${root}/ok.po`, realPath: `${root}/ok.po`, exists: true },
    },
    {
      name: "// and . are normalised",
      path: `${root}//./ok.po`,
      expect: { lexicalPath: `${root}/ok.po`, realPath: `${root}/ok.po`, exists: true },
    },
    {
      name: ".. escaping the root is outside",
      path: `${root}/../outside/secret.po`,
      expect: { error: OutsideRootsError, message: outsideMsg(`${root}/../outside/secret.po`) },
    },
    {
      name: "a file outside every root is outside",
      path: `${outside}/secret.po`,
      expect: { error: OutsideRootsError, message: outsideMsg(`${outside}/secret.po`) },
    },
    {
      name: "a missing file outside is outside, not 'not found'",
      path: `${outside}/none.po`,
      expect: { error: OutsideRootsError, message: outsideMsg(`${outside}/none.po`) },
    },
    {
      name: "a missing directory outside is outside, not 'not found'",
      path: "/no-such-dir-xyz/x.po",
      options: write,
      expect: { error: OutsideRootsError, message: outsideMsg("/no-such-dir-xyz/x.po") },
    },
    {
      name: "a file symlink pointing outside is outside",
      path: `${root}/link_out.po`,
      expect: { error: OutsideRootsError, message: outsideMsg(`${root}/link_out.po`) },
    },
    {
      name: "a directory symlink pointing outside is outside",
      path: `${root}/linkdir/secret.po`,
      expect: { error: OutsideRootsError, message: outsideMsg(`${root}/linkdir/secret.po`) },
    },
    {
      name: "a new file under a directory symlink pointing outside is outside",
      path: `${root}/linkdir/new.po`,
      options: write,
      expect: { error: OutsideRootsError, message: outsideMsg(`${root}/linkdir/new.po`) },
    },
    {
      name: "a symlink to /dev/null is outside",
      path: `${root}/devnull.po`,
      expect: { error: OutsideRootsError, message: outsideMsg(`${root}/devnull.po`) },
    },
    {
      name: "a symlink to a file inside the root opens the target",
      path: `${root}/link_in.po`,
      expect: { lexicalPath: `${root}/ok.po`, realPath: `${root}/ok.po`, exists: true },
    },
    {
      name: "a symlinked root is opened under its configured spelling",
      roots: [rootLink],
      path: `${rootLink}/ok.po`,
      expect: { lexicalPath: `${rootLink}/ok.po`, realPath: `${root}/ok.po`, exists: true },
    },
    {
      name: "a symlinked root spelled through its target still opens the configured spelling",
      roots: [rootLink],
      path: `${root}/sub/deep.pot`,
      expect: { lexicalPath: `${rootLink}/sub/deep.pot`, realPath: `${root}/sub/deep.pot`, exists: true },
    },
    {
      name: "a root configured with a trailing slash works",
      roots: [`${root}/`],
      path: `${root}/ok.po`,
      expect: { lexicalPath: `${root}/ok.po`, realPath: `${root}/ok.po`, exists: true },
    },
    {
      name: "the second root can match",
      roots: [outside + "/nothing", `${root}/sub`],
      path: `${root}/sub/deep.pot`,
      expect: { lexicalPath: `${root}/sub/deep.pot`, realPath: `${root}/sub/deep.pot`, exists: true },
    },
    {
      name: "a missing root contains nothing",
      roots: [`${root}/missing-root`],
      path: `${root}/missing-root/x.po`,
      options: write,
      expect: {
        error: OutsideRootsError,
        message: outsideMsg(`${root}/missing-root/x.po`, [`${root}/missing-root`]),
      },
    },
    {
      name: "a missing file is not found (read)",
      path: `${root}/none.po`,
      options: read,
      expect: { error: NotFoundError, message: `File not found: ${root}/none.po` },
    },
    {
      name: "a missing file is fine for a write",
      path: `${root}/new.po`,
      options: write,
      expect: { lexicalPath: `${root}/new.po`, realPath: `${root}/new.po`, exists: false },
    },
    {
      name: "a missing file in a symlinked root is fine for a write",
      roots: [rootLink],
      path: `${rootLink}/sub/new.po`,
      options: write,
      expect: { lexicalPath: `${rootLink}/sub/new.po`, realPath: `${root}/sub/new.po`, exists: false },
    },
    {
      name: "a missing directory is not found (write), naming the directory",
      path: `${root}/nodir/deeper/x.po`,
      options: write,
      expect: { error: NotFoundError, message: `Directory not found: ${root}/nodir/deeper` },
    },
    {
      name: "a missing directory is 'file not found' for a read",
      path: `${root}/nodir/x.po`,
      options: read,
      expect: { error: NotFoundError, message: `File not found: ${root}/nodir/x.po` },
    },
    {
      name: "a file used as a directory is not a directory (write)",
      path: `${root}/ok.po/x.po`,
      options: write,
      expect: { error: InvalidInputError, message: `Not a directory: ${root}/ok.po` },
    },
    {
      name: "a file used as a directory is not found (read)",
      path: `${root}/ok.po/x.po`,
      options: read,
      expect: { error: NotFoundError, message: `File not found: ${root}/ok.po/x.po` },
    },
    {
      name: "a directory named x.po is not a regular file",
      path: `${root}/dir.po`,
      expect: { error: InvalidInputError, message: `Not a regular file: ${root}/dir.po` },
    },
    {
      name: "a directory named x.po is not a regular file (write)",
      path: `${root}/dir.po`,
      options: write,
      expect: { error: InvalidInputError, message: `Not a regular file: ${root}/dir.po` },
    },
    {
      name: "a unix socket is not a regular file",
      when: f.socket,
      path: `${root}/sock.po`,
      expect: { error: InvalidInputError, message: `Not a regular file: ${root}/sock.po` },
    },
    {
      name: "a FIFO is not a regular file (and is never opened)",
      when: f.fifo,
      path: `${root}/fifo.po`,
      expect: { error: InvalidInputError, message: `Not a regular file: ${root}/fifo.po` },
    },
    {
      name: "a character device is not a regular file",
      when: f.device,
      path: `${root}/null.po`,
      expect: { error: InvalidInputError, message: `Not a regular file: ${root}/null.po` },
    },
    {
      name: "a file over maxBytes is too large",
      path: `${root}/big.po`,
      options: { maxBytes: 1000 },
      expect: {
        error: TooLargeError,
        message: `File too large: ${root}/big.po is 2000 bytes, the limit is 1000 bytes`,
      },
    },
    {
      name: "a file of exactly maxBytes is fine",
      path: `${root}/big.po`,
      options: { maxBytes: 2000 },
      expect: { lexicalPath: `${root}/big.po`, realPath: `${root}/big.po`, exists: true },
    },
  ];
}

Deno.test("resolveCataloguePath: each path gets the right answer, class and message", async (t) => {
  await using f = await policyFixture();
  for (const c of cases(f)) {
    await t.step(c.name, async () => {
      if (c.when === false) {
        console.log(`skipped: ${c.name} (cannot create that file type here)`);
        return;
      }
      const run = () =>
        resolveCataloguePath(c.roots ?? [f.root], c.path as string, { mustExist: true, ...c.options });
      if ("error" in c.expect) {
        const { error, message } = c.expect;
        await assert.rejects(run, (e: Error) => {
          assert.ok(e instanceof error, `expected ${error.name}, got ${e.name}: ${e.message}`);
          assert.equal(e.message, message);
          return true;
        });
      } else {
        const got = await run();
        assert.equal(got.lexicalPath, c.expect.lexicalPath);
        assert.equal(got.realPath, c.expect.realPath);
        assert.equal(got.stat !== null, c.expect.exists);
        assert.equal(got.userPath, c.path);
        if (got.stat) assert.ok(got.stat.isFile);
      }
    });
  }
});

Deno.test("resolveCataloguePath never names a resolved path in its messages, and names the roots as configured", async () => {
  await using f = await policyFixture();
  for (
    const path of [`${f.root}/link_out.po`, `${f.root}/linkdir/secret.po`, `${f.root}/../outside/none.po`]
  ) {
    await assert.rejects(() => resolveCataloguePath([f.rootLink], path, { mustExist: true }), (e: Error) => {
      assert.ok(!e.message.includes("secret.po") || path.includes("secret.po"));
      assert.equal(e.message, `Path is outside the catalogue roots (${f.rootLink}): ${path}`);
      assert.ok(!e.message.includes(`${f.root}/`) || path.startsWith(`${f.root}/`));
      assert.ok(!e.message.includes(f.outside) || path.startsWith(f.outside));
      return e instanceof OutsideRootsError;
    });
  }
});

Deno.test("under a sandbox allowing only the root's configured (symlinked) spelling, the store reads and writes it and refuses the rest", async () => {
  await using f = await policyFixture();
  const child = spawnStoreChild(
    [`--allow-read=${f.rootLink}`, `--allow-write=${f.rootLink}`],
    [
      "probe",
      f.rootLink,
      `${f.rootLink}/ok.po`,
      `${f.root}/ok.po`,
      `${f.rootLink}/link_out.po`,
      `${f.rootLink}/linkdir/secret.po`,
      `${f.rootLink}/../outside/secret.po`,
      `${f.outside}/secret.po`,
      `+${f.rootLink}/sub/new.po`,
      `${f.rootLink}/sub/new.po`,
      `+${f.rootLink}/ok.po`,
    ],
    { stdout: "piped" },
  );
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const results = JSON.parse(new TextDecoder().decode(out.stdout));
  const outsideMsg = (p: string) => ({
    error: "OutsideRootsError",
    message: `Path is outside the catalogue roots (${f.rootLink}): ${p}`,
  });
  assert.deepEqual(results, [
    { lexicalPath: `${f.rootLink}/ok.po`, realPath: `${f.root}/ok.po`, lines: ["a"] },
    // The real spelling resolves inside, but the sandbox refuses it (NotCapable, mapped).
    outsideMsg(`${f.root}/ok.po`),
    outsideMsg(`${f.rootLink}/link_out.po`),
    outsideMsg(`${f.rootLink}/linkdir/secret.po`),
    outsideMsg(`${f.rootLink}/../outside/secret.po`),
    outsideMsg(`${f.outside}/secret.po`),
    { written: 1 },
    { lexicalPath: `${f.rootLink}/sub/new.po`, realPath: `${f.root}/sub/new.po`, lines: ["probe"] },
    { written: 2 },
  ]);
  assert.deepEqual(await Deno.readFile(`${f.root}/ok.po`), lineFile(["a", "probe"]));
  assert.deepEqual(await Deno.readFile(`${f.outside}/secret.po`), lineFile(["secret"]));
});
