// The tokenizer's chunk cache: chunk text → its tokens' lexicon entries. A Map keyed by strings
// made every lookup cut the chunk out of the text (an allocation) and hash it again; this table
// is keyed by a hash the tokenizer computes while it scans for whitespace, and compares the
// chunk's characters in place. Open addressing, linear probing; the caller bounds its size.

/** A chunk's tokens: one lexicon entry (most chunks: a number, no allocation), or several. */
export type ChunkTokens = number | Int32Array;

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
  /** The tokens: a single lexicon entry, or −1 and the entries in `many`. */
  private one = new Int32Array(1024);
  private many: (Int32Array | undefined)[] = [];
  size = 0;

  /** `capacity`: entries before {@link full} says so (the table keeps its load at most 1/2). */
  constructor(readonly capacity: number) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.slots = new Int32Array(n);
    this.mask = n - 1;
  }

  get full(): boolean {
    return this.size >= this.capacity;
  }

  clear(): void {
    this.slots.fill(0);
    this.many.length = 0;
    this.size = 0;
    this.charsUsed = 0;
  }

  /** The tokens of `text[a, b)`, whose hash is `h`, or undefined. */
  get(text: string, a: number, b: number, h: number): ChunkTokens | undefined {
    const n = b - a;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const e = this.slots[i]! - 1;
      if (e < 0) return undefined;
      if (this.hashes[e] !== h || this.len[e] !== n) continue;
      const at = this.at[e]!;
      let k = 0;
      while (k < n && this.chars[at + k] === text.charCodeAt(a + k)) k++;
      if (k === n) {
        const one = this.one[e]!;
        return one >= 0 ? one : this.many[e];
      }
    }
  }

  /** Adds `text[a, b)` (hash `h`; not already present) with its tokens. */
  set(text: string, a: number, b: number, h: number, tokens: ChunkTokens): void {
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
    if (typeof tokens === "number") this.one[e] = tokens;
    else {
      this.one[e] = -1;
      this.many[e] = tokens;
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
    this.one = grow(this.one);
  }
}
