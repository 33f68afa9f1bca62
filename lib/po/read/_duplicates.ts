/**
 * msgcat's duplicate rule: two messages with the same domain, msgctxt (null ≠ "") and msgid,
 * obsolete ones included, are an error. Found in linear time whatever the input.
 *
 * @module
 */
import { uniqueLists } from "../_identity_caches.ts";
import type { PoMessage } from "../types.ts";

/**
 * Records that `list` has no duplicate messages, for a caller that knows it by construction (a
 * write made it from a list without duplicates, matching every new message against the old ones):
 * {@link forEachDuplicate} then finds nothing without looking.
 *
 * @example
 * ```ts
 * if (knownUnique(old)) markUnique(updated);
 * ```
 */
export function markUnique(list: readonly PoMessage[]): void {
  uniqueLists.add(list);
}

/** Whether `list` is known to have no duplicate messages (see {@link markUnique}). */
export function knownUnique(list: readonly PoMessage[]): boolean {
  return uniqueLists.has(list);
}

const MAX_CHAIN = 16;

/** A number from a string's length and up to eight of its characters, spread over it. */
export function sampleKey(s: string): number {
  const n = s.length;
  let h = n;
  if (n > 0) {
    h = Math.imul(h ^ s.charCodeAt(0), 0x9e3779b1);
    h = Math.imul(h ^ s.charCodeAt(n - 1), 0x85ebca6b);
    h = Math.imul(h ^ s.charCodeAt(n >> 1), 0xc2b2ae35);
    if (n > 3) {
      h = Math.imul(h ^ s.charCodeAt(n >> 2), 0x27d4eb2f);
      h = Math.imul(h ^ s.charCodeAt((n * 3) >> 2), 0x165667b1);
      h = Math.imul(h ^ s.charCodeAt(n >> 3), 0x9e3779b1);
      h = Math.imul(h ^ s.charCodeAt(n - 2), 0x85ebca6b);
      h = Math.imul(h ^ s.charCodeAt(1), 0xc2b2ae35);
    }
  }
  return (h ^ (h >>> 15)) & 0x3fffffff;
}

function sameIdentity(a: PoMessage, b: PoMessage): boolean {
  return a.msgid === b.msgid && a.msgctxt === b.msgctxt && a.domain === b.domain;
}

/**
 * Calls `found(first, second)` for each message (by index) that repeats an earlier one's domain,
 * msgctxt (null ≠ "") and msgid, obsolete ones included, as msgcat compares them; stops when it
 * returns false. A list found free of duplicates is remembered (message lists are not changed in
 * place: see `types.ts`), so the writer's check of a freshly parsed catalogue costs nothing.
 *
 * Messages are bucketed by a number made from the msgid's length and a few of its characters
 * ({@link sampleKey}): hashing every msgid in full costs more than the rest of the check, and
 * a fresh string's hash is computed on first use. Within a bucket msgids are compared in full; a
 * bucket that grows past {@link MAX_CHAIN} (msgids alike at every sampled place, or one msgid with
 * many contexts) is re-indexed by identity, so no input makes the check quadratic.
 */
export function forEachDuplicate(
  messages: readonly PoMessage[],
  found: (first: number, second: number) => boolean,
  keys?: readonly number[],
): void {
  if (uniqueLists.has(messages)) return;
  const result = probeDuplicates(messages, found, keys);
  if (result === PROBE_TOO_LONG) bucketDuplicates(messages, found);
  else if (result === PROBE_UNIQUE) uniqueLists.add(messages);
}

const PROBE_UNIQUE = 0;
const PROBE_DUPLICATES = 1;
const PROBE_TOO_LONG = 2;

/** Open-addressing table of {@link probeDuplicates}: sampled keys, and first indices + 1 (0: empty). */
let probeKeys = new Int32Array(0);
let probeFirsts = new Int32Array(0);

/**
 * The common case of {@link forEachDuplicate}: a table of {@link sampleKey}s with linear probing,
 * in typed arrays kept between calls (a Map of 12k numbers cost more than the rest of the check).
 * Gives up, having reported nothing, when a probe runs past {@link MAX_CHAIN} × 4 slots (msgids
 * alike at every sampled place), for {@link bucketDuplicates} to do it with no such worst case.
 */
function probeDuplicates(
  messages: readonly PoMessage[],
  found: (first: number, second: number) => boolean,
  keys?: readonly number[],
): number {
  const n = messages.length;
  let size = 16;
  while (size < n * 2) size *= 2;
  if (probeKeys.length < size) {
    probeKeys = new Int32Array(size);
    probeFirsts = new Int32Array(size);
  } else probeFirsts.fill(0, 0, size);
  const table = probeKeys;
  const firsts = probeFirsts;
  const mask = size - 1;
  // Duplicates are reported once the whole list has been probed, so that giving up reports none.
  let pairs: number[] | null = null;
  for (let i = 0; i < n; i++) {
    const m = messages[i]!;
    const key = keys !== undefined ? keys[i]! : sampleKey(m.msgid);
    let slot = key & mask;
    for (let probes = 0;; probes++) {
      const f = firsts[slot]!;
      if (f === 0) {
        table[slot] = key;
        firsts[slot] = i + 1;
        break;
      }
      if (table[slot] === key && sameIdentity(messages[f - 1]!, m)) {
        (pairs ??= []).push(f - 1, i);
        break;
      }
      if (probes === MAX_CHAIN * 4) return PROBE_TOO_LONG;
      slot = (slot + 1) & mask;
    }
  }
  if (pairs === null) return PROBE_UNIQUE;
  for (let k = 0; k < pairs.length; k += 2) if (!found(pairs[k]!, pairs[k + 1]!)) break;
  return PROBE_DUPLICATES;
}

/**
 * {@link forEachDuplicate} by buckets of sampled keys; a bucket that grows past {@link MAX_CHAIN}
 * is re-indexed by identity (msgid, then msgctxt, then domain), so that neither msgids alike where
 * sampled nor many messages sharing one msgid (with different contexts) make it quadratic.
 */
function bucketDuplicates(
  messages: readonly PoMessage[],
  found: (first: number, second: number) => boolean,
): void {
  // Sampled key → index of the first message with it, the first index of each distinct identity,
  // or (past MAX_CHAIN) those indices by identity.
  const buckets = new Map<number, number | number[] | IdentityIndex>();
  let duplicates = false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const key = sampleKey(m.msgid);
    const bucket = buckets.get(key);
    if (bucket === undefined) {
      buckets.set(key, i);
      continue;
    }
    let first = -1;
    if (typeof bucket === "number") {
      if (sameIdentity(messages[bucket]!, m)) first = bucket;
      else buckets.set(key, [bucket, i]);
    } else if (Array.isArray(bucket)) {
      for (let k = 0; k < bucket.length; k++) {
        if (sameIdentity(messages[bucket[k]!]!, m)) {
          first = bucket[k]!;
          break;
        }
      }
      if (first < 0) {
        if (bucket.length < MAX_CHAIN) bucket.push(i);
        else {
          const index = newIdentityIndex();
          for (const k of bucket) firstOfIdentity(index, messages[k]!, k);
          firstOfIdentity(index, m, i);
          buckets.set(key, index);
        }
      }
    } else {
      const f = firstOfIdentity(bucket, m, i);
      if (f !== i) first = f;
    }
    if (first >= 0) {
      duplicates = true;
      if (!found(first, i)) return;
    }
  }
  if (!duplicates) uniqueLists.add(messages);
}

/**
 * First message index by identity: by msgid alone for a message without msgctxt or domain (most),
 * else by a key made of all three (no nested maps: a map per message costs more than the check).
 */
interface IdentityIndex {
  plain: Map<string, number>;
  keyed: Map<string, number>;
}

function newIdentityIndex(): IdentityIndex {
  return { plain: new Map(), keyed: new Map() };
}

/** The index of the first message with `m`'s identity: `i` when `m` is the first (then recorded). */
function firstOfIdentity(index: IdentityIndex, m: PoMessage, i: number): number {
  const plain = m.msgctxt === null && m.domain === undefined;
  const map = plain ? index.plain : index.keyed;
  const key = plain ? m.msgid : JSON.stringify([m.domain ?? null, m.msgctxt, m.msgid]);
  const first = map.get(key);
  if (first !== undefined) return first;
  map.set(key, i);
  return i;
}
