/**
 * The drafts waiting for review across the catalogues under the roots (issue 37.2): found through
 * the workbench's listing (fresh revisions, the store's path policy and load allowance), in pages
 * with the workbench's cursors.
 *
 * - **What is read.** The workbench's listing already read each file's bytes and noted whether they
 *   hold `draft:` (`mayHoldDrafts`): a file whose listed revision has none is not read again; the
 *   others are read once per revision, and parsed only when their bytes hold it.
 *   What each file holds is kept by revision (for a file without drafts, its revision alone), so a
 *   second page, or a listing after a review, reads only the files that changed.
 * - **Bounds.** A page holds at most {@link MAX_DRAFTS_PAGE} drafts; checks run on the page's
 *   drafts only. `total` counts every draft of the listing.
 * - **Cursors** name the file and the draft's position in it, with the file's revision: a file that
 *   changed since is a 409 (start again), never a silently shifted page.
 *
 * @module
 */
import {
  catalogueDrafts,
  type DraftEntry,
  draftEntry,
  type FoundDraft,
  isHeader,
  mayHoldDrafts,
  type PoCatalog,
} from "../po/mod.ts";
import type { CatalogueStore } from "../store/mod.ts";
import { decodeCursor, encodeCursor, requestDigest, staleCursor } from "./_cursor.ts";
import { BusyError, DomainError, TimeoutError } from "../errors.ts";

/** A file to list drafts of: as the workbench lists it, or one named by a request (revision null). */
export interface DraftFile {
  readonly filePath: string;
  /** False: the workbench read these bytes and they hold no mark (not read again). */
  readonly mayHoldDrafts?: boolean;
  readonly summary: { readonly kind: "catalogue" | "template"; readonly revision: string | null };
}

/** Most drafts a page holds. */
export const MAX_DRAFTS_PAGE = 100;

/** One draft as listed: the review lane's entry, and where it is. */
export interface ListedDraft extends DraftEntry {
  /** The catalogue, as `read_po` and `review_draft` take it (root + path). */
  file_path: string;
  /** The catalogue's revision when read (`if_revision` of a review). */
  revision: string;
}

/** A page of drafts. */
export interface DraftsPage {
  drafts: ListedDraft[];
  /** Drafts in the whole listing (every page). */
  total: number;
  next_cursor: string | null;
}

/** What a file held at one revision. */
interface FileDrafts {
  revision: string;
  catalog: PoCatalog | null;
  drafts: readonly FoundDraft[];
}

/**
 * The drafts of a store's catalogues, kept per file and revision (see the module doc).
 *
 * @example
 * ```ts
 * const index = new DraftIndex(store);
 * const page = await index.page(await workbench.files(), { author: null, limit: 20, cursor: null });
 * ```
 */
export class DraftIndex {
  readonly #store: CatalogueStore<PoCatalog>;
  readonly #files = new Map<string, FileDrafts>();

  constructor(store: CatalogueStore<PoCatalog>) {
    this.#store = store;
  }

  /**
   * A page of the drafts of `files` (in their order), by `author` when given (null: the unnamed
   * drafts). Files that cannot be read are passed over (a listing's), or fail the page (`strict`: a
   * file the request named).
   *
   * @throws {InvalidInputError} a cursor that is not one of this listing.
   * @throws {ConflictError} the cursor's file changed since its page was made.
   */
  async page(
    files: readonly DraftFile[],
    request: {
      author?: string | null;
      limit: number;
      cursor: string | null;
      scope: string;
      strict?: boolean;
    },
    signal?: AbortSignal,
  ): Promise<DraftsPage> {
    const digest = requestDigest("drafts", { author: request.author, scope: request.scope });
    const from = request.cursor === null ? null : decodeCursor(request.cursor, "drafts", digest);
    const limit = Math.min(Math.max(1, request.limit), MAX_DRAFTS_PAGE);
    const listed = new Set<string>();
    const drafts: ListedDraft[] = [];
    let total = 0;
    let started = from === null;
    let next: string | null = null;
    for (const file of files) {
      if (file.summary.kind !== "catalogue") continue;
      signal?.throwIfAborted();
      listed.add(file.filePath);
      const held = await this.#drafts(file, request.strict === true, signal);
      if (held === null) continue;
      const mine = request.author === undefined
        ? held.drafts
        : held.drafts.filter((d) => d.mark.author === request.author);
      let first = 0;
      if (!started && from !== null && from.path === file.filePath) {
        if (from.revision !== held.revision) throw staleCursor(file.filePath, from.revision, held.revision);
        started = true;
        first = from.index;
      }
      total += mine.length;
      if (!started) continue;
      for (let i = first; i < mine.length; i++) {
        if (drafts.length === limit) {
          next ??= encodeCursor("drafts", digest, {
            root: 0,
            path: file.filePath,
            revision: held.revision,
            index: i,
          });
          break;
        }
        drafts.push({
          ...draftEntry(mine[i]!, held.catalog!, file.filePath),
          file_path: file.filePath,
          revision: held.revision,
        });
      }
    }
    if (!started && from !== null) throw staleCursor(from.path, from.revision, null);
    // Records of files no longer listed go (a tree-wide listing sees every file).
    if (request.scope === "") {
      for (const path of this.#files.keys()) if (!listed.has(path)) this.#files.delete(path);
    }
    return { drafts, total, next_cursor: next };
  }

  /** What `file` holds now (read again only when its revision changed), or null when unreadable. */
  async #drafts(file: DraftFile, strict: boolean, signal?: AbortSignal): Promise<FileDrafts | null> {
    const kept = this.#files.get(file.filePath);
    if (kept !== undefined && kept.revision === file.summary.revision) return kept;
    if (file.mayHoldDrafts === false && file.summary.revision !== null) {
      // The listing's bytes of this very revision hold no mark: nothing to read.
      const none = { revision: file.summary.revision, catalog: null, drafts: [] };
      this.#files.set(file.filePath, none);
      return none;
    }
    try {
      const read = await this.#store.readBytes(file.filePath, { signal });
      let held: FileDrafts = { revision: read.revision, catalog: null, drafts: [] };
      if (mayHoldDrafts(read.bytes)) {
        const catalog = await this.#store.parseBytes(read.bytes, file.filePath, { signal });
        const drafts = catalogueDrafts(catalog);
        // Kept: the drafts and the header (the checks' plural forms), not the whole catalogue.
        const header = catalog.messages.find(isHeader);
        const kept = { ...catalog, messages: header === undefined ? [] : [header] };
        if (drafts.length > 0) held = { revision: read.revision, catalog: kept, drafts };
      }
      this.#files.set(file.filePath, held);
      return held;
    } catch (error) {
      signal?.throwIfAborted();
      // The file's own problems pass it over (list_catalogues tells them); a busy service does not.
      if (
        strict || !(error instanceof DomainError) || error instanceof BusyError ||
        error instanceof TimeoutError
      ) throw error;
      return null;
    }
  }
}
