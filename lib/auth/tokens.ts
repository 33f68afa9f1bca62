/**
 * The tokens file (`PO_TOKENS_FILE`): one identity a line, `name role sha256-hex`, where the hash is
 * of the token the caller sends as `Authorization: Bearer TOKEN` (`printf %s TOKEN | sha256sum`).
 * Blank lines and lines starting with `#` are skipped. The file holds no token, only hashes; still,
 * it says who may do what, so it is trusted only as the GPSS state directory is: a regular file (not
 * a symbolic link), owned by this user or root, and neither readable nor writable by others
 * (mode 600 or 400), else the start-up stops with one line.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { type Identity, isRole, ROLES } from "./roles.ts";

/** A tokens file that cannot be used: one line naming the file, the line and what to do. */
export class TokensFileError extends Error {
  readonly variable = "PO_TOKENS_FILE";
  constructor(message: string) {
    super(`PO_TOKENS_FILE: ${message}`);
    this.name = "TokensFileError";
  }
}

/** Most identities a tokens file may hold (each line is checked; the lookup is a map). */
export const MAX_TOKENS = 10_000;

/** Largest tokens file read. */
const MAX_TOKENS_FILE_BYTES = 1024 * 1024;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;
const HASH = /^[0-9a-f]{64}$/;

/** The sha256 of a token, as lower-case hex (what a tokens file line holds). */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The identities a tokens file names, by the hash of their token.
 *
 * @throws {TokensFileError} on a malformed line, an unknown role, a name or hash given twice.
 * @example
 * ```ts
 * parseTokens("ada translator " + tokenHash("a long secret token")).get(tokenHash("a long secret token"));
 * // { name: "ada", role: "translator" }
 * ```
 */
export function parseTokens(text: string, path = "the tokens file"): Map<string, Identity> {
  const byHash = new Map<string, Identity>();
  const names = new Set<string>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#")) continue;
    const where = `${path} line ${i + 1}`;
    const fields = line.split(/[ \t]+/);
    if (fields.length !== 3) {
      throw new TokensFileError(`${where}: expected "name role sha256-hex", got ${fields.length} fields`);
    }
    const [name, role, hash] = fields as [string, string, string];
    if (!NAME.test(name)) {
      throw new TokensFileError(
        `${where}: a name is 1-64 letters, digits and . _ @ + - (got ${JSON.stringify(name.slice(0, 70))})`,
      );
    }
    if (!isRole(role)) {
      throw new TokensFileError(
        `${where}: the role must be one of ${ROLES.join(", ")} (got ${JSON.stringify(role.slice(0, 20))})`,
      );
    }
    const hex = hash.toLowerCase();
    if (!HASH.test(hex)) {
      throw new TokensFileError(`${where}: the hash must be 64 hex digits (sha256 of the token)`);
    }
    if (names.has(name)) throw new TokensFileError(`${where}: the name ${name} is given twice`);
    if (byHash.has(hex)) {
      throw new TokensFileError(`${where}: this hash is given twice (one token, two names)`);
    }
    if (byHash.size >= MAX_TOKENS) throw new TokensFileError(`${where}: more than ${MAX_TOKENS} tokens`);
    names.add(name);
    byHash.set(hex, Object.freeze({ name, role }));
  }
  return byHash;
}

/**
 * Reads and checks the tokens file: its permissions (see the module's comment), then its lines.
 *
 * @throws {TokensFileError} one line naming the file and what to do.
 */
export function loadTokensFile(path: string, uid: number): Map<string, Identity> {
  const refuse = (why: string) => new TokensFileError(`cannot use the tokens file ${path}: ${why}`);
  let stat: Deno.FileInfo;
  try {
    stat = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw refuse("it does not exist");
    throw refuse((error as Error).message.split("\n")[0]!);
  }
  if (stat.isSymlink) throw refuse("it is a symbolic link (give the real file)");
  if (!stat.isFile) throw refuse("it is not a regular file");
  if (stat.uid !== uid && stat.uid !== 0) throw refuse(`it belongs to another user (uid ${stat.uid})`);
  const mode = stat.mode ?? 0;
  if ((mode & 0o077) !== 0) {
    throw refuse(`others may read or write it (mode ${(mode & 0o7777).toString(8)}); chmod it to 600`);
  }
  if (stat.size > MAX_TOKENS_FILE_BYTES) throw refuse(`it is over ${MAX_TOKENS_FILE_BYTES} bytes`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Deno.readFileSync(path));
  } catch (error) {
    throw refuse((error as Error).message.split("\n")[0]!);
  }
  return parseTokens(text, path);
}

/**
 * Who sends a token: an identity of the tokens file, the single `API_TOKEN` (admin), or null.
 * The lookup is by the token's sha256 (a map of hashes: the time it takes tells nothing of a token).
 */
export class Identities {
  readonly #byHash: ReadonlyMap<string, Identity>;
  readonly #apiTokenHash: string | null;
  readonly #apiToken: Identity;

  constructor(
    options: { tokens?: ReadonlyMap<string, Identity>; apiToken?: string; apiTokenIdentity: Identity },
  ) {
    this.#byHash = options.tokens ?? new Map();
    this.#apiTokenHash = options.apiToken === undefined ? null : tokenHash(options.apiToken);
    this.#apiToken = options.apiTokenIdentity;
  }

  /** How many identities there are (the API_TOKEN counted). */
  get size(): number {
    return this.#byHash.size + (this.#apiTokenHash === null ? 0 : 1);
  }

  /** The identity sending `token`, or null. */
  identify(token: string): Identity | null {
    const hash = tokenHash(token);
    if (hash === this.#apiTokenHash) return this.#apiToken;
    return this.#byHash.get(hash) ?? null;
  }
}
