/**
 * A catalogue write under a write lease (`CatalogueStoreOptions.writeLease`): taking the lease, which
 * first settles what an earlier holder left unfinished, and the claim each write makes right before
 * its rename (docs/team-server.md, "Write fencing").
 *
 * @module
 */
import type { Bytes } from "../byte_runs.ts";
import type { ResolvedCataloguePath } from "./path_policy.ts";
import { type AtomicUpdateOptions, type CurrentFile, readRegularFile } from "./atomic_write.ts";
import type { CatalogueCallOptions, CatalogueStoreOptions, HeldWriteLease } from "./catalogue_types.ts";
import { revisionOf } from "./revision.ts";

/**
 * Takes the write lease of `path`, and settles a write of it that an earlier writer claimed and
 * did not complete (killed, or its lease lost, between its claim and its record): recorded when
 * the file holds its bytes, dropped once its writer can no longer rename (asked every 200 ms).
 */
export async function takeLease(
  writeLease: NonNullable<CatalogueStoreOptions<unknown>["writeLease"]>,
  path: ResolvedCataloguePath,
  userPath: string,
  maxFileBytes: number,
  signal: AbortSignal | undefined,
): Promise<HeldWriteLease> {
  const lease = await writeLease(path.realPath, signal);
  try {
    while (lease.unfinished !== null) {
      const current = await readRegularFile(path.lexicalPath, userPath, maxFileBytes, {
        followSymlinks: false,
        directories: path.directories,
        signal,
      });
      if (await lease.settle(current === null ? null : revisionOf(current.bytes))) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
      signal?.throwIfAborted();
    }
  } catch (error) {
    await lease.release();
    throw error;
  }
  return lease;
}

/** The file-level options of a write: its signal, and the lease's claim right before the rename. */
export function leasedOptions(
  writeOptions: AtomicUpdateOptions,
  lease: HeldWriteLease | null,
  userPath: string,
  options: CatalogueCallOptions,
): AtomicUpdateOptions {
  const { signal, auditRecord } = options;
  return {
    ...writeOptions,
    ...(signal ? { signal } : {}),
    ...(lease
      ? {
        beforeRename: (previous: CurrentFile | null, next: Bytes) => {
          const write = {
            path: userPath,
            revisionBefore: previous === null ? null : revisionOf(previous.bytes),
            revisionAfter: revisionOf(next),
          };
          return lease.claim({ ...write, record: auditRecord?.(write) ?? null });
        },
      }
      : {}),
  };
}
