//# allFunctionsCalledOnLoad
/**
 * The path functions the file commands need (`join`, `normalize`, `relative`, `isAbsolute`), as
 * `node:path` has them. Importing `node:path` starts Deno's Node compatibility layer, which costs a
 * `wrap` run over a tree more than the walk itself (bench/wrap_tree_bench.sh). So on POSIX systems
 * these are Node's own POSIX algorithms, ported (Node.js `lib/path.js`, MIT licence) and tested
 * against `node:path/posix` (tests/paths_test.ts); on Windows, {@link pathFunctions} gives
 * `node:path` itself.
 *
 * @module
 */

/** The functions, with `node:path`'s signatures and results. */
export interface PathFunctions {
  join(...paths: string[]): string;
  normalize(path: string): string;
  relative(from: string, to: string): string;
  isAbsolute(path: string): boolean;
}

const SLASH = 47;
const DOT = 46;

/** Resolves `.` and `..` segments of `path` (Node's `normalizeString` for POSIX). */
function normalizeString(path: string, allowAboveRoot: boolean): string {
  let res = "";
  let lastSegmentLength = 0;
  let lastSlash = -1;
  let dots = 0;
  let code = 0;
  for (let i = 0; i <= path.length; ++i) {
    if (i < path.length) code = path.charCodeAt(i);
    else if (code === SLASH) break;
    else code = SLASH;
    if (code === SLASH) {
      if (lastSlash === i - 1 || dots === 1) {
        // An empty or "." segment: nothing to add.
      } else if (dots === 2) {
        if (
          res.length < 2 || lastSegmentLength !== 2 || res.charCodeAt(res.length - 1) !== DOT ||
          res.charCodeAt(res.length - 2) !== DOT
        ) {
          if (res.length > 2) {
            const lastSlashIndex = res.lastIndexOf("/");
            if (lastSlashIndex === -1) {
              res = "";
              lastSegmentLength = 0;
            } else {
              res = res.slice(0, lastSlashIndex);
              lastSegmentLength = res.length - 1 - res.lastIndexOf("/");
            }
            lastSlash = i;
            dots = 0;
            continue;
          } else if (res.length !== 0) {
            res = "";
            lastSegmentLength = 0;
            lastSlash = i;
            dots = 0;
            continue;
          }
        }
        if (allowAboveRoot) {
          res += res.length > 0 ? "/.." : "..";
          lastSegmentLength = 2;
        }
      } else {
        if (res.length > 0) res += "/" + path.slice(lastSlash + 1, i);
        else res = path.slice(lastSlash + 1, i);
        lastSegmentLength = i - lastSlash - 1;
      }
      lastSlash = i;
      dots = 0;
    } else if (code === DOT && dots !== -1) {
      ++dots;
    } else {
      dots = -1;
    }
  }
  return res;
}

function normalize(path: string): string {
  if (path.length === 0) return ".";
  const absolute = path.charCodeAt(0) === SLASH;
  const trailingSeparator = path.charCodeAt(path.length - 1) === SLASH;
  let out = normalizeString(path, !absolute);
  if (out.length === 0) {
    if (absolute) return "/";
    return trailingSeparator ? "./" : ".";
  }
  if (trailingSeparator) out += "/";
  return absolute ? `/${out}` : out;
}

function join(...paths: string[]): string {
  const joined = paths.filter((p) => p.length > 0).join("/");
  return joined.length === 0 ? "." : normalize(joined);
}

/** An absolute, normalised path (relative ones against the working directory). */
function resolve(path: string): string {
  const absolute = path.charCodeAt(0) === SLASH;
  const full = absolute ? path : `${Deno.cwd()}/${path}`;
  return `/${normalizeString(full, false)}`;
}

function relative(from: string, to: string): string {
  if (from === to) return "";
  from = resolve(from);
  to = resolve(to);
  if (from === to) return "";
  const fromStart = 1;
  const fromEnd = from.length;
  const fromLen = fromEnd - fromStart;
  const toStart = 1;
  const toLen = to.length - toStart;
  const length = fromLen < toLen ? fromLen : toLen;
  let lastCommonSep = -1;
  let i = 0;
  for (; i < length; i++) {
    const fromCode = from.charCodeAt(fromStart + i);
    if (fromCode !== to.charCodeAt(toStart + i)) break;
    else if (fromCode === SLASH) lastCommonSep = i;
  }
  if (i === length) {
    if (toLen > length) {
      // `from` is the exact base path of `to`, or the root.
      if (to.charCodeAt(toStart + i) === SLASH) return to.slice(toStart + i + 1);
      if (i === 0) return to.slice(toStart + i);
    } else if (fromLen > length) {
      // `to` is the exact base path of `from`, or the root.
      if (from.charCodeAt(fromStart + i) === SLASH) lastCommonSep = i;
      else if (i === 0) lastCommonSep = 0;
    }
  }
  let out = "";
  for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
    if (i === fromEnd || from.charCodeAt(i) === SLASH) out += out.length === 0 ? ".." : "/..";
  }
  return `${out}${to.slice(toStart + lastCommonSep)}`;
}

/** The POSIX functions (exported for the tests). */
export const POSIX_PATHS: PathFunctions = {
  join,
  normalize,
  relative,
  isAbsolute: (path) => path.charCodeAt(0) === SLASH,
};

/** The path functions of this system: {@link POSIX_PATHS}, or `node:path` on Windows. */
export async function pathFunctions(): Promise<PathFunctions> {
  return Deno.build.os === "windows" ? await import("node:path") : POSIX_PATHS;
}
