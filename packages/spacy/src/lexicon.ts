// The tokenizer's lexicon: every token text (and special-case NORM variant) seen since the last
// renewal, as a small integer that the senter keys its caches by. Texts are looked up in place, as
// ranges of the code units of the text being tokenized, in the index the tokenizer's kernel keeps
// (hashed as the chunk cache hashes them), so a token seen before costs no string.
import { ChunkKernel, MISS, T_LEXICON } from "./chunk-kernel.js";
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
  /** Special-case tokens with a NORM of their own, by text and norm (apart: no token text can reach them). */
  private readonly specialByKey = new Map<string, Map<string, number>>();

  /** `kernel`: the tokenizer's, whose text {@link getRange} reads (a lexicon of its own without one). */
  constructor(readonly kernel = new ChunkKernel(16)) {}

  private add(orth: string, norm: string | undefined): number {
    const id = this.entries.length;
    this.entries.push({ orth, norm });
    if (id === this.lengths.length) {
      const grown = new Int32Array(id * 2);
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[id] = orth.length;
    return id;
  }

  /** The entry of the code units [a, b) at byte address `at` of the kernel's memory, hash `h`. */
  private getAt(at: number, a: number, b: number, h: number): number {
    const fn = this.kernel.fn;
    const known = fn.get(T_LEXICON, at, a, b, h);
    if (known !== MISS) return known;
    const id = this.add(this.kernel.stringAt(at, a, b), undefined);
    fn.setEntry(T_LEXICON, at, a, b, h, id);
    return id;
  }

  /** The entry of a plain token text. */
  get(orth: string): number {
    const at = this.kernel.loadScratch(orth);
    return this.getAt(at, 0, orth.length, this.kernel.fn.hashOf(at, 0, orth.length));
  }

  /** The entry of the plain token text at [a, b) of the kernel's text, whose hash the caller may know already. */
  getRange(a: number, b: number, h?: number): number {
    const at = this.kernel.textAt;
    return this.getAt(at, a, b, h ?? this.kernel.fn.hashOf(at, a, b));
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

  /** Forgets every entry (ids are reused from 0). */
  clear(): void {
    this.entries.length = 0;
    this.kernel.fn.clearTable(T_LEXICON);
    this.specialByKey.clear();
  }
}
