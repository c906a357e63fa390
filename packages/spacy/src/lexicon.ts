// The tokenizer's lexicon: every token text (and special-case NORM variant) seen since the last
// renewal, as a small integer that the senter keys its caches by. Texts are looked up in place, as
// ranges of the code units of the text being tokenized, in the index the tokenizer's kernel keeps
// (hashed as the chunk cache hashes them), so a token seen before costs no string.
import { ChunkKernel, T_LEXICON } from "./chunk-kernel.js";
import type { SpecialToken } from "./folder.js";

/** A lexicon entry: a token text, plus the NORM a special case gave it (undefined: the lexeme's own). */
export interface LexiconEntry {
  orth: string;
  norm: string | undefined;
}

/** Interned token texts (and special-case norm variants) → small ints; what the senter keys its caches by. */
export class Lexicon {
  readonly entries: LexiconEntry[] = [];
  /** UTF-16 length of each entry's text. */
  lengths = new Int32Array(1024);
  /**
   * What the tokenizer and the senter note about each entry, side by side ({@link noteWords} Int32
   * words an entry, each user's at the offset {@link claimNotes} gave it; 0 when new): every
   * token's entry is looked up by both, and this way the second finds its cache line already read
   * (apart, each was a cache miss on most tokens of real text).
   */
  notes = new Int32Array(0);
  /** Words an entry has in {@link notes}. */
  noteWords = 0;
  /** Special-case tokens with a NORM of their own, by text and norm (apart: no token text can reach them). */
  private readonly specialByKey = new Map<string, Map<string, number>>();

  /** `kernel`: the tokenizer's, whose text {@link pushRange} reads (a lexicon of its own without one). */
  constructor(readonly kernel = new ChunkKernel(16)) {}

  private add(orth: string, norm: string | undefined): number {
    const id = this.entries.length;
    this.entries.push({ orth, norm });
    if (id === this.lengths.length) {
      const grown = new Int32Array(id * 2);
      grown.set(this.lengths);
      this.lengths = grown;
      this.layNotes(this.noteWords);
    }
    this.lengths[id] = orth.length;
    return id;
  }

  /** The notes laid out again, `words` an entry, room for as many entries as {@link lengths}. */
  private layNotes(words: number): void {
    const notes = new Int32Array(this.lengths.length * words);
    if (words === this.noteWords) notes.set(this.notes.subarray(0, this.entries.length * words));
    else
      for (let e = 0; e < this.entries.length; e++)
        notes.set(this.notes.subarray(e * this.noteWords, (e + 1) * this.noteWords), e * words);
    this.notes = notes;
    this.noteWords = words;
  }

  /** `words` more words of notes an entry, all 0, for a user of the lexicon: their offset in an entry's. */
  claimNotes(words: number): number {
    const at = this.noteWords;
    this.layNotes(at + words);
    return at;
  }

  /** The entry of the code units [a, b) at byte address `at` of the kernel's memory, hash `h`. */
  private getAt(at: number, a: number, b: number, h: number): number {
    // One call: the index's entry, or the next id given to these units.
    const next = this.entries.length;
    const id = this.kernel.fn.intern(T_LEXICON, at, a, b, h, next);
    if (id === next) this.add(this.kernel.stringAt(at, a, b), undefined);
    return id;
  }

  /** The entry of a plain token text. */
  get(orth: string): number {
    const at = this.kernel.loadScratch(orth);
    return this.getAt(at, 0, orth.length, this.kernel.fn.hashOf(at, 0, orth.length));
  }

  /**
   * Pushes the plain token text at [a, b) of the kernel's text as the kernel's next token (at a),
   * its entry added if new: one call into the kernel (hash, lookup, push).
   */
  pushRange(a: number, b: number): void {
    const next = this.entries.length;
    if (this.kernel.fn.pushRange(a, b, next) === next)
      this.add(this.kernel.stringAt(this.kernel.textAt, a, b), undefined);
  }

  /** The entry of a special case's token (its NORM, if the rule sets one, makes it a separate entry). */
  getSpecial(t: SpecialToken): number {
    if (t.norm === undefined) return this.get(t.orth);
    const norms = this.specialByKey.get(t.orth) ?? new Map<string, number>();
    this.specialByKey.set(t.orth, norms);
    let id = norms.get(t.norm);
    if (id === undefined) {
      id = this.add(t.orth, t.norm);
      norms.set(t.norm, id);
    }
    return id;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Forgets every entry and its notes (ids are reused from 0). */
  clear(): void {
    this.notes.fill(0, 0, this.entries.length * this.noteWords);
    this.entries.length = 0;
    this.kernel.fn.clearTable(T_LEXICON);
    this.specialByKey.clear();
  }
}
