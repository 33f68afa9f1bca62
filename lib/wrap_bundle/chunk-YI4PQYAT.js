import {
  InvalidInputError,
  TooLargeError
} from "./chunk-3FRGNG6M.js";

// lib/store/regular_read.ts
var DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;
var NotRegularFileError = class extends InvalidInputError {
  /** The kind of file found, e.g. "a directory", "a FIFO", "a character device". */
  what;
  /**
   * Makes the error for `displayPath` (the caller's spelling), which is `what` (e.g. "a FIFO").
   *
   * @param displayPath the path as the caller gave it.
   * @param what the kind of file found.
   */
  constructor(displayPath, what) {
    super(`Not a regular file: ${displayPath}`);
    this.what = what;
  }
};
var OPEN_TIME_LIMIT_MS = 2e3;
function fileKind(stat) {
  if (stat.isDirectory) return "a directory";
  if (stat.isSymlink) return "a symbolic link";
  if (stat.isFifo) return "a FIFO";
  if (stat.isCharDevice) return "a character device";
  if (stat.isBlockDevice) return "a block device";
  if (stat.isSocket) return "a socket";
  return "not a regular file";
}
var ticker = null;
function enterTurns() {
  if (ticker === null) {
    const t = {
      channel: new MessageChannel(),
      waiters: [],
      users: 0
    };
    t.channel.port1.onmessage = () => {
      const waiting = t.waiters;
      t.waiters = [];
      for (const resume of waiting) resume();
    };
    ticker = t;
  }
  ticker.users++;
  return ticker;
}
function leaveTurns(t) {
  if (--t.users > 0) return;
  t.channel.port1.close();
  t.channel.port2.close();
  if (ticker === t) ticker = null;
}
function nextTurn(t) {
  return new Promise((resolve) => {
    if (t.waiters.push(resolve) === 1) t.channel.port2.postMessage(null);
  });
}
var QUICK_OPEN_TURNS = 8;
async function openInTime(path, displayPath, limitMs) {
  const opening = Deno.open(path, {
    read: true
  });
  let settled = false;
  opening.then(() => settled = true, () => settled = true);
  const turns = enterTurns();
  try {
    for (let turn = 0; turn < QUICK_OPEN_TURNS && !settled; turn++) await nextTurn(turns);
  } finally {
    leaveTurns(turns);
  }
  if (settled) return await opening;
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new NotRegularFileError(displayPath, "not openable in time (a FIFO?)")), limitMs);
  });
  try {
    return await Promise.race([
      opening,
      late
    ]);
  } catch (error) {
    opening.then((file) => file.close(), () => {
    });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
async function readRegularFileBytesDeno(path, maxBytes = DEFAULT_MAX_FILE_BYTES, openLimitMs = OPEN_TIME_LIMIT_MS) {
  const named = Deno.statSync(path);
  if (!named.isFile) throw new NotRegularFileError(path, fileKind(named));
  if (named.size > maxBytes) {
    throw new TooLargeError(`File too large: ${path} is ${named.size} bytes, the limit is ${maxBytes} bytes`);
  }
  const file = await openInTime(path, path, openLimitMs);
  try {
    const opened = file.statSync();
    if (!opened.isFile) throw new NotRegularFileError(path, fileKind(opened));
    if (opened.size > maxBytes) {
      throw new TooLargeError(`File too large: ${path} is ${opened.size} bytes, the limit is ${maxBytes} bytes`);
    }
    let buffer = new Uint8Array(opened.size);
    let total = 0;
    const probe = new Uint8Array(1);
    for (; ; ) {
      const into = total < buffer.length ? buffer.subarray(total) : probe;
      const n = file.readSync(into);
      if (n === null) break;
      if (into === probe) {
        if (buffer.length >= maxBytes) {
          throw new TooLargeError(`File too large: ${path} is over ${maxBytes} bytes`);
        }
        const grown = new Uint8Array(Math.min(Math.max(buffer.length * 2, 4096), maxBytes));
        grown.set(buffer);
        grown[total] = probe[0];
        buffer = grown;
      }
      total += n;
    }
    return total === buffer.length ? buffer : buffer.slice(0, total);
  } finally {
    file.close();
  }
}

// lib/native_bytes.ts
var native = null;
var NATIVE_BYTES_WORTHWHILE = 256 * 1024;
async function loadNativeBytes() {
  if (native !== null) return;
  const buffer = await import("node:buffer");
  native = buffer.Buffer;
}
function latin1String(bytes, from = 0, to = bytes.length) {
  if (native !== null) {
    return native.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1", from, to);
  }
  return jsLatin1String(bytes, from, to);
}
var FROM_CHAR_CODE_UNITS = 8192;
function jsLatin1String(bytes, from = 0, to = bytes.length) {
  let out = "";
  for (let i = from; i < to; i += FROM_CHAR_CODE_UNITS) {
    const piece = bytes.subarray(i, Math.min(to, i + FROM_CHAR_CODE_UNITS));
    out += String.fromCharCode.apply(null, piece);
  }
  return out;
}
function latin1Bytes(text) {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}
function equalBytes(a, b) {
  if (a.length !== b.length) return false;
  if (native !== null) return native.compare(a, b) === 0;
  return jsEqualBytes(a, b);
}
function jsEqualBytes(a, b) {
  const n = a.length;
  if (n !== b.length) return false;
  let i = 0;
  if (((a.byteOffset ^ b.byteOffset) & 3) === 0) {
    for (; i < n && (a.byteOffset + i & 3) !== 0; i++) if (a[i] !== b[i]) return false;
    if (i === n) return true;
    const words = n - i >> 2;
    const wa = new Int32Array(a.buffer, a.byteOffset + i, words);
    const wb = new Int32Array(b.buffer, b.byteOffset + i, words);
    for (let k = 0; k < words; k++) if (wa[k] !== wb[k]) return false;
    i += words * 4;
  }
  for (; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

// lib/byte_runs.ts
var encoder = new TextEncoder();
var NON_ASCII = /[^\0-\x7f]/;
function utf8Length(s) {
  if (!NON_ASCII.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) n += 1;
    else if (c < 2048) n += 2;
    else if (c >= 55296 && c < 56320 && i + 1 < s.length && (s.charCodeAt(i + 1) & 64512) === 56320) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
function joinRuns(items) {
  const runs = [];
  let whole = null;
  let start = 0;
  let end = 0;
  for (const item of items) {
    let buffer;
    let from;
    let to;
    if (item instanceof Uint8Array) {
      if (whole !== null && inPlace(whole, end, item)) {
        end += item.length;
        continue;
      }
      buffer = item;
      from = 0;
      to = item.length;
    } else {
      if (item.buffer === whole && item.start === end) {
        end = item.end;
        continue;
      }
      buffer = item.buffer;
      from = item.start;
      to = item.end;
    }
    if (whole !== null && end > start) runs.push(whole.subarray(start, end));
    whole = buffer;
    start = from;
    end = to;
  }
  if (whole !== null && end > start) runs.push(whole.subarray(start, end));
  return runs;
}
function inPlace(buffer, at, bytes) {
  if (at + bytes.length > buffer.length) return false;
  for (let i = 0; i < bytes.length; i++) if (buffer[at + i] !== bytes[i]) return false;
  return true;
}
function concatRuns(runs) {
  let length = 0;
  for (const r of runs) length += r.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const r of runs) {
    out.set(r, at);
    at += r.length;
  }
  return out;
}
function bytesLength(bytes) {
  if (bytes instanceof Uint8Array) return bytes.length;
  let n = 0;
  for (const run of bytes) n += run.length;
  return n;
}
function flatBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  const [only] = bytes;
  return bytes.length === 1 && only !== void 0 ? only : concatRuns(bytes);
}
function equalAt(bytes, offset, part) {
  if (bytes instanceof Uint8Array) {
    return offset + part.length <= bytes.length && sameArrays(bytes.subarray(offset, offset + part.length), part);
  }
  let at = 0;
  let done = 0;
  for (const run of bytes) {
    const end = at + run.length;
    if (end > offset + done && done < part.length) {
      const from = offset + done - at;
      const n = Math.min(run.length - from, part.length - done);
      if (!sameArrays(run.subarray(from, from + n), part.subarray(done, done + n))) return false;
      done += n;
    }
    at = end;
    if (done === part.length) return true;
  }
  return done === part.length;
}
function sameBytes(a, b) {
  if (a === b) return true;
  if (bytesLength(a) !== bytesLength(b)) return false;
  if (a instanceof Uint8Array) return equalAt(b, 0, a);
  let at = 0;
  for (const run of a) {
    if (!equalAt(b, at, run)) return false;
    at += run.length;
  }
  return true;
}
function copyPrefix(bytes, n, target) {
  if (bytes instanceof Uint8Array) {
    target.set(bytes.subarray(0, n));
    return;
  }
  let at = 0;
  for (const run of bytes) {
    if (at >= n) return;
    const take = Math.min(run.length, n - at);
    target.set(run.subarray(0, take), at);
    at += take;
  }
}
function sameArrays(a, b) {
  return equalBytes(a, b);
}

export {
  NATIVE_BYTES_WORTHWHILE,
  loadNativeBytes,
  latin1String,
  latin1Bytes,
  equalBytes,
  utf8Length,
  joinRuns,
  concatRuns,
  bytesLength,
  flatBytes,
  equalAt,
  sameBytes,
  copyPrefix,
  DEFAULT_MAX_FILE_BYTES,
  NotRegularFileError,
  fileKind,
  readRegularFileBytesDeno
};
