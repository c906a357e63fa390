// spaCy's `senter` (a Tagger.v2 over Tok2Vec.v2: MultiHashEmbed.v2 + MaxoutWindowEncoder.v2) as
// thinc computes it: per token, hash embeddings of the lexical attributes summed over thinc's four
// keys, a maxout + layer norm mixing them, residual window convolutions (maxout + layer norm) over
// the zero-padded sequence, then two scores, I and S. A token starts a sentence when S scores higher.
//
// What depends only on a token's lexicon entry and its trailing space (the embedding, and each
// window position's projection in the first encoder layer) is computed once per entry and kept.
// Sums run in float64 where numpy/BLAS run float32: the decisions are the same unless the two
// scores are within float32 rounding of each other (spaCy's own results move that much between
// BLAS builds).
import type { HashEmbedTable, MaxoutNorm, SenterWeights } from "./folder.js";
import { hashId128, hashString } from "./hashing.js";
import { attributeIds, lexemeNormOf, lexemeStrings } from "./lexeme.js";
import type { Lexicon, TokenizedText } from "./tokenizer.js";

/** Layer norm's variance epsilon in thinc. */
const LN_EPS = 1e-8;

/** maxout(W·x + b) over `nP` pieces, then thinc's layer norm, into `out[o..o+nO)`; `x` read from `xs` at `xo`. */
function maxoutNormRow(layer: MaxoutNorm, pre: Float64Array, out: Float64Array, o: number): void {
  const { nO, nP, G, beta } = layer;
  let mean = 0;
  for (let k = 0; k < nO; k++) {
    let best = pre[k * nP]!;
    for (let p = 1; p < nP; p++) if (pre[k * nP + p]! > best) best = pre[k * nP + p]!;
    out[o + k] = best;
    mean += best;
  }
  mean /= nO;
  let v = 0;
  for (let k = 0; k < nO; k++) {
    const d = out[o + k]! - mean;
    v += d * d;
  }
  const inv = 1 / Math.sqrt(v / nO + LN_EPS);
  for (let k = 0; k < nO; k++) out[o + k] = (out[o + k]! - mean) * inv * G[k]! + beta[k]!;
}

/** `pre = W·x + b` for a maxout layer (rows nO·nP, x of length nI at xs[xo..]). */
function affine(layer: MaxoutNorm, xs: Float64Array, xo: number, pre: Float64Array): void {
  const { nO, nP, nI, W, b } = layer;
  const rows = nO * nP;
  for (let r = 0; r < rows; r++) {
    let s = b[r]!;
    const w = r * nI;
    for (let j = 0; j < nI; j++) s += W[w + j]! * xs[xo + j]!;
    pre[r] = s;
  }
}

/** The senter of one pipeline, bound to a tokenizer's lexicon. Not thread-safe; one per worker. */
export class Senter {
  private readonly width: number;
  /** Per lexicon entry and trailing-space flag (index entry·2 + spacy): the embedding, once computed. */
  private embeds = new Float64Array(0);
  private embedded = new Uint8Array(0);
  private readonly keys = new Uint32Array(4);
  private readonly concat: Float64Array;
  private readonly pre: Float64Array;

  constructor(
    private readonly w: SenterWeights,
    private readonly lexicon: Lexicon,
    private readonly lexemeNorm: ReadonlyMap<string, string>,
  ) {
    this.width = w.width;
    this.concat = new Float64Array(w.mix.nI);
    let maxRows = w.mix.nO * w.mix.nP;
    for (const l of w.encoder) maxRows = Math.max(maxRows, l.nO * l.nP);
    this.pre = new Float64Array(maxRows);
  }

  /** The embedding of entry `lex` with trailing-space flag `spacy`, written to `out[o..o+width)`. */
  private embed(lex: number, spacy: number, out: Float64Array, o: number): void {
    const key = lex * 2 + spacy;
    const width = this.width;
    if (key >= this.embedded.length) this.growCache(key + 1);
    if (this.embedded[key] === 0) {
      this.computeEmbedding(lex, spacy, this.embeds, key * width);
      this.embedded[key] = 1;
    }
    const base = key * width;
    for (let k = 0; k < width; k++) out[o + k] = this.embeds[base + k]!;
  }

  private growCache(n: number): void {
    const size = Math.max(n, this.embedded.length * 2, 1024);
    const e = new Float64Array(size * this.width);
    e.set(this.embeds);
    const f = new Uint8Array(size);
    f.set(this.embedded);
    this.embeds = e;
    this.embedded = f;
  }

  private computeEmbedding(lex: number, spacy: number, out: Float64Array, o: number): void {
    const entry = this.lexicon.entries[lex]!;
    const strings = lexemeStrings(entry.orth, entry.norm ?? lexemeNormOf(entry.orth, this.lexemeNorm));
    const ids = attributeIds(strings);
    const width = this.width;
    const concat = this.concat;
    this.w.embeddings.forEach((table, c) => {
      const id = table.attr === "SPACY" ? { hi: 0, lo: spacy } : ids[table.attr];
      this.gatherAdd(table, id, concat, c * width);
    });
    affine(this.w.mix, concat, 0, this.pre);
    maxoutNormRow(this.w.mix, this.pre, out, o);
  }

  /** thinc's HashEmbed for one id: the four hashed rows summed (in float32, as thinc's axpy). */
  private gatherAdd(
    table: HashEmbedTable,
    id: { hi: number; lo: number },
    out: Float64Array,
    o: number,
  ): void {
    const width = this.width;
    hashId128(id, table.seed, this.keys, 0);
    for (let k = 0; k < width; k++) out[o + k] = 0;
    for (let h = 0; h < 4; h++) {
      const row = (this.keys[h]! % table.rows) * width;
      for (let k = 0; k < width; k++) out[o + k] = Math.fround(out[o + k]! + table.E[row + k]!);
    }
  }

  /**
   * Sentence starts of a tokenized text: `out[i]` = 1 where token i starts a sentence (the first
   * token always does). `scores`, if given, receives S − I per token.
   */
  predict(tokens: TokenizedText, scores?: Float64Array): Uint8Array {
    const n = tokens.length;
    const out = new Uint8Array(n);
    if (n === 0) return out;
    const width = this.width;
    const win = this.w.window;
    const pad = win * this.w.encoder.length;
    const rows = n + 2 * pad;
    let X = new Float64Array(rows * width);
    for (let t = 0; t < n; t++) this.embed(tokens.lex[t]!, tokens.spacy[t]!, X, (t + pad) * width);
    const span = 2 * win + 1;
    const windowed = new Float64Array(span * width);
    for (const layer of this.w.encoder) {
      const Y = new Float64Array(rows * width);
      for (let r = 0; r < rows; r++) {
        for (let d = -win; d <= win; d++) {
          const src = r + d;
          const o = (d + win) * width;
          if (src < 0 || src >= rows) for (let k = 0; k < width; k++) windowed[o + k] = 0;
          else for (let k = 0; k < width; k++) windowed[o + k] = X[src * width + k]!;
        }
        affine(layer, windowed, 0, this.pre);
        maxoutNormRow(layer, this.pre, Y, r * width);
        for (let k = 0; k < width; k++) Y[r * width + k] = Y[r * width + k]! + X[r * width + k]!;
      }
      X = Y;
    }
    const W = this.w.outW;
    const b = this.w.outB;
    for (let t = 0; t < n; t++) {
      const o = (t + pad) * width;
      let i = b[0]!;
      let s = b[1]!;
      for (let k = 0; k < width; k++) {
        i += W[k]! * X[o + k]!;
        s += W[width + k]! * X[o + k]!;
      }
      out[t] = s > i ? 1 : 0;
      if (scores) scores[t] = s - i;
    }
    out[0] = 1;
    return out;
  }
}

/** Exposed for tests: spaCy's string hash of an attribute string. */
export const attributeHash = hashString;
