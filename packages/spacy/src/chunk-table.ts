// The tokenizer's chunk cache: chunk text → its tokens' lexicon entries. A Map keyed by strings
// made every lookup cut the chunk out of the text (an allocation) and hash it again; this table
// is keyed by a hash the tokenizer computes while it scans for whitespace, and compares the
// chunk's code units in place. Keys are ranges of a Uint16Array (the text's UTF-16 code units,
// copied once per text), not of strings: `charCodeAt` on the many kinds of string V8 makes (flat,
// sliced, concatenated, internalized; one or two bytes a unit) was a megamorphic call per unit.
// Open addressing, linear probing; the caller bounds its size (the chunk cache) or grows it (the
// lexicon's index).

/**
 * What {@link ChunkTable.get} finds: {@link MISS}, a lexicon entry (≥ 0: a chunk of one token, as
 * most are), or a list of several in the table's {@link ChunkTable.lists} (≤ −2: the list's offset
 * is −code − 2, its length first, then its entries). Numbers only: nothing is allocated per chunk,
 * so a long run's tables leave no objects for the garbage collector to copy.
 */
export type ChunkCode = number;

/** {@link ChunkTable.get}'s answer for a chunk it does not hold. */
export const MISS: ChunkCode = -1;

/** FNV-1a step over one UTF-16 unit: what {@link ChunkTable} keys are hashed with. */
export function hashStep(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}

/** FNV-1a's offset basis: the hash of the empty chunk. */
export const HASH_START = 0x811c9dc5 | 0;

/** The {@link hashStep} hash of `units[a, b)`. */
export function hashOf(units: Uint16Array, a: number, b: number): number {
  let h = HASH_START;
  for (let i = a; i < b; i++) h = hashStep(h, units[i]!);
  return h;
}

/** Int32 fields of a slot: hash, length + 1 (0: empty), code, where its units are, then the units inline. */
const SLOT_INTS = 8;
const HASH = 0;
const LENGTH = 1;
const CODE = 2;
const AT = 3;
const INLINE = 4;
/** Code units kept in the slot itself (most words): a lookup that hits them reads one cache line. */
const INLINE_UNITS = (SLOT_INTS - INLINE) * 2;

export class ChunkTable {
  /**
   * The slots, SLOT_INTS int32 each (32 bytes: two to a cache line): everything a lookup reads,
   * so that a probe touches one line rather than one per field. Units of longer chunks are in
   * {@link chars}.
   */
  private slots: Int32Array;
  /** The slots' inline units (the same memory). */
  private slotUnits: Uint16Array;
  /** Slots minus one (a power of two minus one). */
  private mask: number;
  /** Units of chunks longer than INLINE_UNITS: `chars[at, at + length)`. */
  private chars = new Uint16Array(1 << 14);
  private charsUsed = 0;
  /** Token lists of chunks of several tokens: a length, then that many lexicon entries. */
  lists = new Int32Array(1 << 14);
  private listsUsed = 0;
  size = 0;

  /** `capacity`: entries before {@link full} says so (the table keeps its load at most 1/2). */
  constructor(private capacity: number) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.slots = new Int32Array(n * SLOT_INTS);
    this.slotUnits = new Uint16Array(this.slots.buffer);
    this.mask = n - 1;
  }

  /** Doubles the capacity: the slots are laid out again from their hashes. */
  grow(): void {
    this.capacity *= 2;
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.slotUnits = new Uint16Array(this.slots.buffer);
    this.mask = this.mask * 2 + 1;
    for (let o = 0; o < old.length; o += SLOT_INTS) {
      if (old[o + LENGTH] === 0) continue;
      let i = old[o + HASH]! & this.mask;
      while (this.slots[i * SLOT_INTS + LENGTH] !== 0) i = (i + 1) & this.mask;
      this.slots.set(old.subarray(o, o + SLOT_INTS), i * SLOT_INTS);
    }
  }

  get full(): boolean {
    return this.size >= this.capacity;
  }

  clear(): void {
    this.slots.fill(0);
    this.size = 0;
    this.charsUsed = 0;
    this.listsUsed = 0;
  }

  /** The tokens of `units[a, b)`, whose hash is `h`, or {@link MISS}. */
  get(units: Uint16Array, a: number, b: number, h: number): ChunkCode {
    const n = b - a;
    const slots = this.slots;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const o = i * SLOT_INTS;
      const length = slots[o + LENGTH]! - 1;
      if (length < 0) return MISS;
      if (slots[o + HASH] !== h || length !== n) continue;
      let k = 0;
      if (n <= INLINE_UNITS) {
        const inline = this.slotUnits;
        const at = (o + INLINE) * 2;
        while (k < n && inline[at + k] === units[a + k]) k++;
      } else {
        const chars = this.chars;
        const at = slots[o + AT]!;
        while (k < n && chars[at + k] === units[a + k]) k++;
      }
      if (k === n) return slots[o + CODE]!;
    }
  }

  /** Adds `units[a, b)` (hash `h`; not already present) with its tokens, `ids[from, to)`. */
  set(units: Uint16Array, a: number, b: number, h: number, ids: Int32Array, from: number, to: number): void {
    this.size++;
    const n = b - a;
    let i = h & this.mask;
    while (this.slots[i * SLOT_INTS + LENGTH] !== 0) i = (i + 1) & this.mask;
    const o = i * SLOT_INTS;
    const slots = this.slots;
    slots[o + HASH] = h;
    slots[o + LENGTH] = n + 1;
    if (n <= INLINE_UNITS) {
      const at = (o + INLINE) * 2;
      for (let k = 0; k < n; k++) this.slotUnits[at + k] = units[a + k]!;
    } else {
      if (this.charsUsed + n > this.chars.length) {
        const grown = new Uint16Array(Math.max(this.chars.length * 2, this.charsUsed + n));
        grown.set(this.chars.subarray(0, this.charsUsed));
        this.chars = grown;
      }
      const at = this.charsUsed;
      for (let k = 0; k < n; k++) this.chars[at + k] = units[a + k]!;
      this.charsUsed += n;
      slots[o + AT] = at;
    }
    if (to - from === 1) slots[o + CODE] = ids[from]!;
    else {
      const need = this.listsUsed + 1 + to - from;
      if (need > this.lists.length) {
        const grown = new Int32Array(Math.max(this.lists.length * 2, need));
        grown.set(this.lists.subarray(0, this.listsUsed));
        this.lists = grown;
      }
      const at = this.listsUsed;
      this.lists[at] = to - from;
      for (let k = from; k < to; k++) this.lists[at + 1 + k - from] = ids[k]!;
      this.listsUsed = need;
      slots[o + CODE] = -at - 2;
    }
  }
}
