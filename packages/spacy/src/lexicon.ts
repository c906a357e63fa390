// The tokenizer's lexicon: every token text (and special-case NORM variant) seen since the last
// renewal, as a small integer that the senter keys its caches by. Texts are looked up in place, as
// ranges of the code units of the text they occur in (hashed as the chunk cache hashes them), so a
// token seen before costs no string.
import { ChunkTable, hashOf, MISS } from "./chunk-table.js";
import type { SpecialToken } from "./folder.js";
import { UnitBuffer, unitsToString } from "./utf16.js";

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
  /** Plain token texts → their entries (grown as the lexicon grows). */
  private readonly index = new ChunkTable(1 << 12);
  private readonly one = new Int32Array(1);
  /** A plain text looked up whole ({@link get}), as code units. */
  private readonly scratch = new UnitBuffer();
  /** Special-case tokens with a NORM of their own, by text and norm (apart: no token text can reach them). */
  private readonly specialByKey = new Map<string, Map<string, number>>();

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

  /** The entry of a plain token text. */
  get(orth: string): number {
    return this.getRange(this.scratch.load(orth), 0, orth.length);
  }

  /** The entry of the plain token text `units[a, b)`, whose hash (`hashOf`) the caller may know already. */
  getRange(units: Uint16Array, a: number, b: number, h = hashOf(units, a, b)): number {
    const known = this.index.get(units, a, b, h);
    if (known !== MISS) return known;
    const id = this.add(unitsToString(units, a, b), undefined);
    if (this.index.full) this.index.grow();
    this.one[0] = id;
    this.index.set(units, a, b, h, this.one, 0, 1);
    return id;
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
    this.index.clear();
    this.specialByKey.clear();
  }
}
