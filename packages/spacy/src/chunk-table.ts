// The tokenizer's chunk cache: chunk text → its tokens' lexicon entries. A Map keyed by strings
// made every lookup cut the chunk out of the text (an allocation) and hash it again; this table
// is keyed by a hash the tokenizer computes while it scans for whitespace, and compares the
// chunk's characters in place. Open addressing, linear probing; the caller bounds its size (the
// chunk cache) or grows it (the lexicon's index).

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

/** The {@link hashStep} hash of `s[a, b)`. */
export function hashOf(s: string, a: number, b: number): number {
  let h = HASH_START;
  for (let i = a; i < b; i++) h = hashStep(h, s.charCodeAt(i));
  return h;
}

export class ChunkTable {
  /** Slot → entry + 1 (0: empty). */
  private slots: Int32Array;
  private mask: number;
  private hashes = new Int32Array(1024);
  /** Each entry's characters: `chars[at[e] .. at[e] + len[e])`. */
  private at = new Int32Array(1024);
  private len = new Int32Array(1024);
  private chars = new Uint16Array(1 << 16);
  private charsUsed = 0;
  /** Each entry's {@link ChunkCode}. */
  private code = new Int32Array(1024);
  /** Token lists of chunks of several tokens: a length, then that many lexicon entries. */
  lists = new Int32Array(1 << 14);
  private listsUsed = 0;
  size = 0;

  /** `capacity`: entries before {@link full} says so (the table keeps its load at most 1/2). */
  constructor(private capacity: number) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.slots = new Int32Array(n);
    this.mask = n - 1;
  }

  /** Doubles the capacity: the slots are laid out again from the entries' hashes. */
  grow(): void {
    this.capacity *= 2;
    const n = this.slots.length * 2;
    this.slots = new Int32Array(n);
    this.mask = n - 1;
    for (let e = 0; e < this.size; e++) {
      let i = this.hashes[e]! & this.mask;
      while (this.slots[i] !== 0) i = (i + 1) & this.mask;
      this.slots[i] = e + 1;
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

  /** The tokens of `text[a, b)`, whose hash is `h`, or {@link MISS}. */
  get(text: string, a: number, b: number, h: number): ChunkCode {
    const n = b - a;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const e = this.slots[i]! - 1;
      if (e < 0) return MISS;
      if (this.hashes[e] !== h || this.len[e] !== n) continue;
      const at = this.at[e]!;
      let k = 0;
      while (k < n && this.chars[at + k] === text.charCodeAt(a + k)) k++;
      if (k === n) return this.code[e]!;
    }
  }

  /** Adds `text[a, b)` (hash `h`; not already present) with its tokens, `ids[from, to)`. */
  set(text: string, a: number, b: number, h: number, ids: Int32Array, from: number, to: number): void {
    const e = this.size++;
    if (e === this.hashes.length) this.growEntries();
    const n = b - a;
    if (this.charsUsed + n > this.chars.length) {
      const grown = new Uint16Array(Math.max(this.chars.length * 2, this.charsUsed + n));
      grown.set(this.chars.subarray(0, this.charsUsed));
      this.chars = grown;
    }
    const at = this.charsUsed;
    for (let k = 0; k < n; k++) this.chars[at + k] = text.charCodeAt(a + k);
    this.charsUsed += n;
    this.hashes[e] = h;
    this.at[e] = at;
    this.len[e] = n;
    if (to - from === 1) this.code[e] = ids[from]!;
    else {
      const need = this.listsUsed + 1 + to - from;
      if (need > this.lists.length) {
        const grown = new Int32Array(Math.max(this.lists.length * 2, need));
        grown.set(this.lists.subarray(0, this.listsUsed));
        this.lists = grown;
      }
      const o = this.listsUsed;
      this.lists[o] = to - from;
      for (let k = from; k < to; k++) this.lists[o + 1 + k - from] = ids[k]!;
      this.listsUsed = need;
      this.code[e] = -o - 2;
    }
    let i = h & this.mask;
    while (this.slots[i] !== 0) i = (i + 1) & this.mask;
    this.slots[i] = e + 1;
  }

  private growEntries(): void {
    const n = this.hashes.length * 2;
    const grow = (a: Int32Array) => {
      const g = new Int32Array(n);
      g.set(a);
      return g;
    };
    this.hashes = grow(this.hashes);
    this.at = grow(this.at);
    this.len = grow(this.len);
    this.code = grow(this.code);
  }
}
