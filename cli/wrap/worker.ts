/**
 * A Web Worker that lays out catalogues for `wrap` (see `pool.ts`): receives
 * `{ id, path, bytes, noWrap }`, answers `{ id, after }` with msgcat's bytes, `{ id, same }` when they
 * are the job's own (the file is laid out already: `laid_out.ts`), or `{ id, error }`
 * with what the reader or writer refused (a syntax error keeps its reason, line and column).
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { DomainError, PoSyntaxError } from "../../lib/errors.ts";
import { encodePo, type GettextGeneration, knownLayout, parsePo } from "../../lib/po/mod.ts";
import { loadNativeBytes, NATIVE_BYTES_WORTHWHILE } from "../../lib/native_bytes.ts";

/** A job for the worker. */
export interface LayoutJob {
  id: number;
  path: string;
  bytes: Uint8Array;
  noWrap: boolean;
  /** The gettext generation to lay out as. */
  generation: GettextGeneration;
}

/** Its answer: the laid-out bytes, `same` when they are the job's bytes, or the refusal. */
export type LayoutAnswer =
  | { id: number; after: Uint8Array }
  | { id: number; same: true }
  | { id: number; error: { kind: "syntax"; reason: string; line: number; column: number } }
  | { id: number; error: { kind: "domain" | "other"; name: string; message: string } };

/** Bytes laid out so far: past a few hundred KB, node:buffer's native decoding pays (native_bytes.ts). */
let bytesSeen = 0;

self.onmessage = async (event: MessageEvent<LayoutJob>) => {
  const { id, path, bytes, noWrap, generation } = event.data;
  bytesSeen += bytes.length;
  if (bytesSeen >= NATIVE_BYTES_WORTHWHILE) await loadNativeBytes();
  let answer: LayoutAnswer;
  try {
    // The file's own lines often tell msgcat's bytes (laid_out.ts): the file itself, or a layout.
    const known = knownLayout(bytes, noWrap, generation);
    answer = known === bytes ? { id, same: true } : {
      id,
      after: known ??
        encodePo(parsePo(bytes, { fileName: path, placeholderCharset: generation === "0.23" }), {
          noWrap,
          once: true,
          generation,
        }),
    };
  } catch (e) {
    if (e instanceof PoSyntaxError) {
      answer = { id, error: { kind: "syntax", reason: e.reason, line: e.line, column: e.column } };
    } else {
      const err = e instanceof Error ? e : new Error(String(e));
      answer = {
        id,
        error: { kind: e instanceof DomainError ? "domain" : "other", name: err.name, message: err.message },
      };
    }
  }
  const transfer = "after" in answer ? [answer.after.buffer as ArrayBuffer] : [];
  self.postMessage(answer, transfer);
};
