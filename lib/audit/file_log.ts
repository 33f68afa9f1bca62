/**
 * The embedded audit log: append-only JSON lines in `PO_AUDIT_DIR` (checked at start-up as the GPSS
 * state directory is), `audit.jsonl` and its rotated predecessors `audit.1.jsonl` … (oldest last).
 *
 * - Each record is one line of at most 16 KB (`auditRecord` bounds it), written with one `write(2)`
 *   on a file opened for appending.
 * - Several processes may share the directory (instances on one machine, or on a file system that
 *   has `flock`): each append holds an exclusive `flock` on `audit.lock`, so a line is never
 *   interleaved with another, and a rotation (when `audit.jsonl` passes `maxFileBytes`) is done by
 *   one process while no other appends.
 * - Nothing is read at start-up and nothing is held in memory: a query reads the files newest
 *   first, each at most `maxFileBytes` (plus one line), and stops at the limit. Damaged lines (a
 *   crash mid-write leaves at most a partial last line) are skipped.
 *
 * @module
 */
import { join } from "node:path";
import {
  asRecord,
  type AuditAnswer,
  type AuditLog,
  type AuditQuery,
  type AuditRecord,
  matches,
} from "./record.ts";

/** Default size at which `audit.jsonl` is rotated. */
export const DEFAULT_AUDIT_FILE_BYTES = 16 * 1024 * 1024;

/** Default number of files kept (`audit.jsonl` and `audit.1.jsonl` … `audit.N-1.jsonl`). */
export const DEFAULT_AUDIT_FILES = 8;

/** Options of a {@link FileAuditLog}. */
export interface FileAuditOptions {
  /** Size past which the current file is rotated. */
  maxFileBytes?: number;
  /** Files kept, the current one included (the oldest is deleted on rotation). */
  files?: number;
}

/** The audit log as JSON lines in a directory. */
export class FileAuditLog implements AuditLog {
  readonly #dir: string;
  readonly #maxFileBytes: number;
  readonly #files: number;
  /** Appends of this process, one after the other (the flock orders them against other processes). */
  #turn: Promise<void> = Promise.resolve();

  constructor(dir: string, options: FileAuditOptions = {}) {
    this.#dir = dir;
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_AUDIT_FILE_BYTES;
    this.#files = Math.max(1, options.files ?? DEFAULT_AUDIT_FILES);
  }

  #name(n: number): string {
    return join(this.#dir, n === 0 ? "audit.jsonl" : `audit.${n}.jsonl`);
  }

  append(record: AuditRecord): Promise<void> {
    const line = new TextEncoder().encode(JSON.stringify(record) + "\n");
    const done = this.#turn.then(() => this.#appendLocked(line));
    this.#turn = done.catch(() => {});
    return done;
  }

  async #appendLocked(given: Uint8Array): Promise<void> {
    let line = given;
    const lock = await Deno.open(join(this.#dir, "audit.lock"), {
      read: true,
      write: true,
      create: true,
      mode: 0o600,
    });
    try {
      await lock.lock(true);
      let size = 0;
      try {
        size = (await Deno.lstat(this.#name(0))).size;
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
      if (size > 0 && size + line.length > this.#maxFileBytes) await this.#rotate();
      const file = await Deno.open(this.#name(0), { read: true, append: true, create: true, mode: 0o600 });
      try {
        // A crash mid-append left a partial last line: this record starts a line of its own.
        if (size > 0 && size + line.length <= this.#maxFileBytes && !(await endsWithNewline(file, size))) {
          line = new Uint8Array([0x0a, ...line]);
        }
        let written = 0;
        while (written < line.length) written += await file.write(line.subarray(written));
        await file.syncData();
      } finally {
        file.close();
      }
    } finally {
      lock.close();
    }
  }

  async #rotate(): Promise<void> {
    try {
      await Deno.remove(this.#name(this.#files - 1));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    for (let n = this.#files - 2; n >= 0; n--) {
      try {
        await Deno.rename(this.#name(n), this.#name(n + 1));
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
  }

  async query(query: AuditQuery, limit: number): Promise<AuditAnswer> {
    const records: AuditRecord[] = [];
    const decoder = new TextDecoder();
    for (let n = 0; n < this.#files; n++) {
      let bytes: Uint8Array;
      try {
        const file = await Deno.open(this.#name(n), { read: true });
        try {
          // A file is at most maxFileBytes plus one record; read no more than that.
          const max = this.#maxFileBytes + 32 * 1024;
          const size = Math.min((await file.stat()).size, max);
          bytes = new Uint8Array(size);
          let got = 0;
          while (got < size) {
            const r = await file.read(bytes.subarray(got));
            if (r === null) break;
            got += r;
          }
          bytes = bytes.subarray(0, got);
        } finally {
          file.close();
        }
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) continue;
        throw error;
      }
      const lines = decoder.decode(bytes).split("\n");
      for (let i = lines.length - 1; i >= 0; i--) {
        const text = lines[i]!;
        if (text === "") continue;
        let record: AuditRecord | null;
        try {
          record = asRecord(JSON.parse(text));
        } catch {
          record = null;
        }
        if (record === null || !matches(record, query)) continue;
        if (records.length === limit) return { records, truncated: true };
        records.push(record);
      }
    }
    return { records, truncated: false };
  }
}

/** True when the file's byte at `size - 1` is a newline. */
async function endsWithNewline(file: Deno.FsFile, size: number): Promise<boolean> {
  await file.seek(size - 1, Deno.SeekMode.Start);
  const last = new Uint8Array(1);
  return (await file.read(last)) === 1 && last[0] === 0x0a;
}
