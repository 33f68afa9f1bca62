/**
 * A root's terminology, read from its files through an injected reader (the service's goes through
 * the catalogue store and its path policy; the `check` command's reads the disk), and kept while
 * the files are unchanged: the glossary by the identity of the catalogue the reader returns (the
 * store returns the same object while the file is unchanged), the terminology file by its text.
 *
 * @module
 */
import type { PoCatalog, TermRules } from "../po/mod.ts";
import { buildTerminology, MAX_TERMINOLOGY_FILE_BYTES, type Terminology } from "./terminology.ts";
import { termRules } from "./rules.ts";

/** The glossary catalogue looked for at a root. */
export const GLOSSARY_FILE = "glossary.po";
/** The terminology file looked for at a root. */
export const TERMS_FILE = ".po-terms.csv";

/** What loading needs of the host. */
export interface TermFilesIo {
  /** The parsed catalogue at `path`, or null when there is no such file; throws when it cannot be read. */
  readCatalogue(path: string, signal?: AbortSignal): Promise<PoCatalog | null>;
  /** The bytes of the file at `path`, or null when there is no such file; throws when it cannot be read. */
  readBytes(path: string, signal?: AbortSignal): Promise<Uint8Array | null>;
}

/** A root's terminology and the rules the checks take. */
export interface LoadedTerminology {
  terminology: Terminology;
  rules: TermRules;
}

function join(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

/**
 * The terminologies of roots, each built again only when one of its files changed. A file that
 * cannot be read or used is left out with a warning in the terminology's `warnings` (the checks go
 * on with the rest).
 */
export class TerminologyCache {
  readonly #io: TermFilesIo;
  readonly #kept = new Map<
    string,
    { glossary: PoCatalog | null; text: string | null; loaded: LoadedTerminology }
  >();

  constructor(io: TermFilesIo) {
    this.#io = io;
  }

  /** The terminology of the directory `root` (its `glossary.po` and `.po-terms.csv`). */
  async forRoot(root: string, signal?: AbortSignal): Promise<LoadedTerminology> {
    const warnings: string[] = [];
    let glossary: PoCatalog | null = null;
    try {
      glossary = await this.#io.readCatalogue(join(root, GLOSSARY_FILE), signal);
    } catch (error) {
      warnings.push(`${GLOSSARY_FILE} was not used: ${(error as Error).message}`);
    }
    let text: string | null = null;
    try {
      const bytes = await this.#io.readBytes(join(root, TERMS_FILE), signal);
      if (bytes !== null && bytes.length > MAX_TERMINOLOGY_FILE_BYTES) {
        warnings.push(`${TERMS_FILE} was not used: larger than ${MAX_TERMINOLOGY_FILE_BYTES} bytes`);
      } else if (bytes !== null) {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      }
    } catch (error) {
      warnings.push(
        `${TERMS_FILE} was not used: ${
          error instanceof TypeError ? "it is not UTF-8" : (error as Error).message
        }`,
      );
    }
    signal?.throwIfAborted(); // an abandoned request's reads are not the files' fault
    const kept = this.#kept.get(root);
    if (kept !== undefined && kept.glossary === glossary && kept.text === text && warnings.length === 0) {
      return kept.loaded;
    }
    const terminology = buildTerminology({
      ...(glossary !== null ? { glossary: { catalog: glossary, source: GLOSSARY_FILE } } : {}),
      ...(text !== null ? { file: { text, source: TERMS_FILE } } : {}),
    });
    const loaded = {
      terminology: warnings.length === 0
        ? terminology
        : { ...terminology, warnings: [...warnings, ...terminology.warnings] },
      rules: termRules(terminology),
    };
    if (this.#kept.size >= 64 && !this.#kept.has(root)) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(root, { glossary, text, loaded });
    return loaded;
  }
}
