// Byte strings interned without making JS strings: the qrels' docnos once each, looked up from a
// run's bytes. Why: a string and a Map entry per run line were most of the old path's time (and
// its garbage collector's); here a lookup is a hash of bytes already in hand and a byte compare.

/**
 * FNV-1a over bytes [start, end), then murmur3's finalizer: the tables index by the low bits,
 * which FNV-1a alone leaves clustered for docnos that differ in their last digits.
 */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Whether bytes [aStart, aEnd) of `a` equal [bStart, bEnd) of `b`. */
export function bytesEqual(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
) {
  const n = aEnd - aStart;
  if (n !== bEnd - bStart) return false;
  for (let i = 0; i < n; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

/** `strcmp`'s sign on two byte strings (C's order, which is trec_eval's docno order). */
export function compareBytes(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
) {
  const n = Math.min(aEnd - aStart, bEnd - bStart);
  for (let i = 0; i < n; i++) {
    const d = a[aStart + i]! - b[bStart + i]!;
    if (d !== 0) return d;
  }
  return aEnd - aStart - (bEnd - bStart);
}

/** A growable Uint8Array with room for `more` bytes past `used`. */
export function growBytes(b: Uint8Array, used: number, more: number): Uint8Array {
  if (used + more <= b.length) return b;
  const n = new Uint8Array(Math.max(b.length * 2, used + more));
  n.set(b.subarray(0, used));
  return n;
}

/** A growable Int32Array holding at least `n` entries. */
export function growInt32(a: Int32Array, n: number): Int32Array {
  if (n <= a.length) return a;
  const b = new Int32Array(Math.max(a.length * 2, n));
  b.set(a);
  return b;
}

/**
 * Interned byte strings, ids 0, 1, … in order of first insertion: open addressing, linear probing,
 * the bytes in one arena.
 */
export class ByteTable {
  bytes: Uint8Array;
  used = 0;
  /** Start of id i's bytes in `bytes`; its end is starts[i + 1]. */
  starts: Int32Array;
  size = 0;
  private hashes: Int32Array;
  /** id + 1 per slot, 0 empty. */
  private slots: Int32Array;

  /** `expected`: about how many strings will come (sized for them, so no rehash on the way). */
  constructor(expected = 1024) {
    let slots = 2048;
    while (slots < 2 * expected) slots *= 2;
    this.slots = new Int32Array(slots);
    this.hashes = new Int32Array(slots >> 1);
    this.starts = new Int32Array((slots >> 1) + 1);
    this.bytes = new Uint8Array(Math.max(1 << 16, 8 * expected));
  }

  /** The id of bytes [start, end) of `buf` (`hash` is their {@link hashBytes}), or -1. */
  find(buf: Uint8Array, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s]! - 1;
      if (id < 0) return -1;
      if (
        this.hashes[id] === hash &&
        bytesEqual(this.bytes, this.starts[id]!, this.starts[id + 1]!, buf, start, end)
      )
        return id;
    }
  }

  /** The id of bytes [start, end), added if new. */
  intern(buf: Uint8Array, start: number, end: number, hash: number): number {
    const found = this.find(buf, start, end, hash);
    if (found >= 0) return found;
    const id = this.size++;
    if (this.size * 2 > this.slots.length) this.rehash();
    this.bytes = growBytes(this.bytes, this.used, end - start);
    const bytes = this.bytes;
    // A loop, not set(subarray()): a Buffer's subarray is an object per docno.
    for (let i = start, at = this.used; i < end; i++, at++) bytes[at] = buf[i]!;
    this.used += end - start;
    // Each array checked on its own: grown together, starts (one longer) fell a slot short after
    // the second growth and the write past its end was dropped (ids past 2049 of a table sized
    // for 1024 read back empty).
    this.hashes = growInt32(this.hashes, this.size);
    this.starts = growInt32(this.starts, this.size + 1);
    this.starts[id + 1] = this.used;
    this.hashes[id] = hash;
    const mask = this.slots.length - 1;
    let s = hash & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = id + 1;
    return id;
  }

  /** Id i's bytes as a string (UTF-8). */
  text(id: number): string {
    const start = this.starts[id];
    const end = this.starts[id + 1];
    if (start === undefined || end === undefined) throw new RangeError(`id ${id} of ${this.size}`);
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + start, end - start).toString("utf8");
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (const [id, hash] of this.hashes.subarray(0, this.size - 1).entries()) {
      let s = hash & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = id + 1;
    }
    this.slots = slots;
  }
}
