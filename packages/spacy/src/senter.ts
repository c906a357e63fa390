// spaCy's `senter` (a Tagger.v2 over Tok2Vec.v2: MultiHashEmbed.v2 + MaxoutWindowEncoder.v2) as
// thinc computes it: per token, hash embeddings of the lexical attributes summed over thinc's four
// keys, a maxout + layer norm mixing them, residual window convolutions (maxout + layer norm) over
// the zero-padded sequence, then two scores, I and S. A token starts a sentence when S scores higher.
//
// Restructured for speed, not approximated: what depends only on a token's lexicon entry and its
// trailing space (the embedding, and each window position's share of the first encoder layer) is
// computed once per entry and kept in a record. The WebAssembly SIMD kernel (senter-kernel.ts,
// wasm/senter.ts) computes records and the per-token layers; the plain JavaScript below is its
// reference and the way for other architectures. Float sums run in another order than
// numpy/BLAS, which moves scores in their last bits only: a decision could differ only where S
// and I are within float32 rounding.

import { elementAt } from "./checked.js";
import type { HashEmbedTable, MaxoutNorm, SenterWeights } from "./folder.js";
import { hashId128, type U64 } from "./hashing.js";
import { attributeIds, fallbackNorm, lexemeNormOf, lexemeStrings } from "./lexeme.js";
import type { Lexicon } from "./lexicon.js";
import { SenterKernel } from "./senter-kernel.js";
import { stringId } from "./symbols.js";
import type { TokenizedText } from "./tokenizer.js";

/** Layer norm's variance epsilon in thinc. */
const LN_EPS = 1e-8;

/** maxout over `nP` pieces of `pre[po..]` (thinc's layout), then thinc's layer norm, into `out[o..o+nO)`. */
function maxoutNorm(layer: MaxoutNorm, pre: Float64Array, po: number, out: Float64Array, o: number): void {
  const { nO, nP, G, beta } = layer;
  let mean = 0;
  for (let k = 0; k < nO; k++) {
    const at = po + k * nP;
    let best = pre[at]!;
    for (let p = 1; p < nP; p++) if (pre[at + p]! > best) best = pre[at + p]!;
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

/** `pre[po + r] = b[r] + Σ_j W[r, wo + j]·x[xo + j]`, j < n, for the rows of a layer (row length nI). */
function affine(
  layer: MaxoutNorm,
  withBias: boolean,
  wo: number,
  n: number,
  x: Float64Array | Float32Array,
  xo: number,
  pre: Float64Array,
  po: number,
): void {
  const { nO, nP, nI, W, b } = layer;
  for (let r = 0; r < nO * nP; r++) {
    let s = withBias ? b[r]! : 0;
    const w = r * nI + wo;
    for (let j = 0; j < n; j++) s += W[w + j]! * x[xo + j]!;
    pre[po + r] = s;
  }
}

/** Tokens per block of a long text (what bounds the kernel's per-text memory). */
const BLOCK_TOKENS = 1 << 16;

/**
 * Feature keys cached before the senter makes room (a pipeline's default; a share of it for each
 * thread of a job). Large: on text that never repeats, a small cache recomputes the same words
 * again and again. The kernel's records take 448 bytes a key (56 MiB at this limit) and are reused,
 * never allocated afresh. On the benchmark's 26.5 MiB of real text 131,072 computed 304K entries
 * where 65,536 computed 418K, for 8% less CPU in all (alternating runs).
 */
export const ENTRY_CACHE_LIMIT = 1 << 17;

/** Records {@link Senter.makeRoom} keeps: about 4 MiB of them. */
const KEPT_SLOTS = 1 << 13;

/** A `lexeme_norm` table (spaCy string hash as `hi:lo` hex → norm) as the kernel's (orth id, norm id) pairs. */
function normPairs(lexemeNorm: ReadonlyMap<string, string>): [U64, U64][] {
  return [...lexemeNorm].map(([key, norm]) => {
    const [hi, lo] = key.split(":");
    return [{ hi: Number.parseInt(hi!, 16), lo: Number.parseInt(lo!, 16) }, stringId(norm)];
  });
}

/** How the senter computes: `simd` (the default where WebAssembly SIMD runs) or plain JavaScript. */
export interface SenterOptions {
  simd?: boolean;
  /** Tokens per block of a long text (tests use small ones; the decisions are the same). */
  blockTokens?: number;
}

/** The senter of one pipeline, bound to a tokenizer's lexicon. Not thread-safe; one per worker. */
export class Senter {
  private readonly width: number;
  private readonly win: number;
  private readonly span: number;
  /** Rows of the first encoder layer's affine map (nO·nP). */
  private readonly r1: number;
  /** Record slots given out. */
  private slots = 0;
  /**
   * Where this senter's two notes on each lexicon entry are ({@link Lexicon.notes}): the record
   * slot + 1 of the entry's features without a trailing space, then with one (0: none).
   */
  private readonly slotNotes: number;
  private readonly kernel: SenterKernel | undefined;
  private readonly blockTokens: number;
  /** New entries waiting for the kernel: slot, trailing space, fixed norm, and 2 strings each (text, norm). */
  private pendingSlots = new Int32Array(1024);
  private pendingSpacy = new Uint8Array(1024);
  private pendingFixed = new Uint8Array(1024);
  private readonly pendingStrings: string[] = [];
  private pending = 0;
  /** Records without the kernel: per slot, the embedding then the first layer's projections (thinc's row order). */
  private records = new Float32Array(0);
  private readonly recordFloats: number;
  private readonly hashKeys = new Uint32Array(4);
  private readonly concat: Float32Array;
  private readonly scratch: Float64Array;
  private readonly embedding: Float64Array;
  private X = new Float64Array(0);
  private Y = new Float64Array(0);
  private pre = new Float64Array(0);
  private slotRow = new Int32Array(0);

  constructor(
    private readonly w: SenterWeights,
    private readonly lexicon: Lexicon,
    private readonly lexemeNorm: ReadonlyMap<string, string>,
    options: SenterOptions = {},
  ) {
    this.slotNotes = lexicon.claimNotes(2);
    this.width = w.width;
    this.win = w.window;
    this.span = 2 * w.window + 1;
    const first = elementAt(w.encoder, 0);
    this.r1 = first.nO * first.nP;
    this.recordFloats = this.width + this.span * this.r1;
    this.concat = new Float32Array(w.mix.nI);
    this.scratch = new Float64Array(Math.max(w.mix.nO * w.mix.nP, this.r1));
    this.embedding = new Float64Array(this.width);
    this.kernel = options.simd === false ? undefined : SenterKernel.for(w, normPairs(lexemeNorm));
    this.blockTokens = options.blockTokens ?? BLOCK_TOKENS;
  }

  /** Entries whose features are cached (the caller makes room past {@link ENTRY_CACHE_LIMIT}). */
  get cachedEntries(): number {
    return this.slots;
  }

  /** Forgets every cached feature (the lexicon's entries are about to be renumbered). */
  clear(): void {
    this.forgetSlots(0);
  }

  /** Forgets the features of every slot from `keep` on. */
  private forgetSlots(keep: number): void {
    const notes = this.lexicon.notes;
    const stride = this.lexicon.noteWords;
    const end = this.lexicon.size * stride;
    for (let k = this.slotNotes; k < end; k += stride) {
      if (notes[k]! > keep) notes[k] = 0;
      if (notes[k + 1]! > keep) notes[k + 1] = 0;
    }
    this.slots = keep;
  }

  /**
   * Makes room: forgets every cached feature but those of the first {@link KEPT_SLOTS} slots, the
   * first keys seen, which on running text are its commonest words (the, of, punctuation) and
   * would be computed again at once. Kept records stay in their slots, so nothing is copied.
   */
  makeRoom(): void {
    this.forgetSlots(Math.min(KEPT_SLOTS, this.slots));
  }

  /** The record slot of a token's features, computed on first use. */
  private slot(lex: number, spacy: number): number {
    const note = lex * this.lexicon.noteWords + this.slotNotes + spacy;
    const known = this.lexicon.notes[note]!;
    if (known > 0) return known - 1;
    const s = this.slots++;
    if (this.kernel) this.queue(lex, spacy, s);
    else this.computeRecord(lex, spacy, s);
    this.lexicon.notes[note] = s + 1;
    return s;
  }

  /** A new entry for the kernel, computed at the next {@link flush}. */
  private queue(lex: number, spacy: number, s: number): void {
    const n = this.pending++;
    if (n === this.pendingSlots.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T, make: (k: number) => T): T => {
        const g = make(2 * n);
        g.set(a);
        return g;
      };
      this.pendingSlots = grow(this.pendingSlots, (k) => new Int32Array(k));
      this.pendingSpacy = grow(this.pendingSpacy, (k) => new Uint8Array(k));
      this.pendingFixed = grow(this.pendingFixed, (k) => new Uint8Array(k));
    }
    const entry = elementAt(this.lexicon.entries, lex);
    this.pendingSlots[n] = s;
    this.pendingSpacy[n] = spacy;
    this.pendingFixed[n] = entry.norm === undefined ? 0 : 1;
    this.pendingStrings[2 * n] = entry.orth;
    this.pendingStrings[2 * n + 1] = entry.norm ?? fallbackNorm(entry.orth);
  }

  /** The queued entries' records, computed by the kernel in one call. */
  private flush(kernel: SenterKernel): void {
    if (this.pending === 0) return;
    kernel.reserveSlots(this.slots);
    kernel.entries(
      this.pendingSlots,
      this.pendingSpacy,
      this.pendingStrings,
      this.pendingFixed,
      this.pending,
    );
    // The strings stay until overwritten: truncating would drop the array's storage every block.
    this.pending = 0;
  }

  /** The concatenated hash embeddings of an entry's attributes (thinc's HashEmbed, one table after another). */
  private embed(lex: number, spacy: number, out: Float32Array): void {
    const entry = elementAt(this.lexicon.entries, lex);
    const strings = lexemeStrings(entry.orth, entry.norm ?? lexemeNormOf(entry.orth, this.lexemeNorm));
    const ids = attributeIds(strings);
    const width = this.width;
    const tables = this.w.embeddings;
    for (const [c, table] of tables.entries()) {
      this.gatherAdd(table, table.attr === "SPACY" ? { hi: 0, lo: spacy } : ids[table.attr], out, c * width);
    }
  }

  /** thinc's HashEmbed for one id: the four hashed rows summed (in float32, as thinc's axpy). */
  private gatherAdd(table: HashEmbedTable, id: U64, out: Float32Array, o: number): void {
    const width = this.width;
    hashId128(id, table.seed, this.hashKeys, 0);
    // Float32Array stores round each sum to float32, as thinc's axpy does.
    const E = table.E;
    const r0 = (this.hashKeys[0]! % table.rows) * width;
    const r1 = (this.hashKeys[1]! % table.rows) * width;
    const r2 = (this.hashKeys[2]! % table.rows) * width;
    const r3 = (this.hashKeys[3]! % table.rows) * width;
    for (let k = 0; k < width; k++) {
      out[o + k] = E[r0 + k]!;
      out[o + k] = out[o + k]! + E[r1 + k]!;
      out[o + k] = out[o + k]! + E[r2 + k]!;
      out[o + k] = out[o + k]! + E[r3 + k]!;
    }
  }

  /** A record in JavaScript: the mixed embedding, then W_d·embedding for each window position d. */
  private computeRecord(lex: number, spacy: number, s: number): void {
    const rf = this.recordFloats;
    if ((s + 1) * rf > this.records.length) {
      const grown = new Float32Array(Math.max(1024, 2 * (s + 1)) * rf);
      grown.set(this.records);
      this.records = grown;
    }
    this.embed(lex, spacy, this.concat);
    const mix = this.w.mix;
    affine(mix, true, 0, mix.nI, this.concat, 0, this.scratch, 0);
    maxoutNorm(mix, this.scratch, 0, this.embedding, 0);
    const width = this.width;
    const base = s * rf;
    for (let k = 0; k < width; k++) this.records[base + k] = this.embedding[k]!;
    const first = elementAt(this.w.encoder, 0);
    for (let d = 0; d < this.span; d++) {
      affine(first, false, d * width, width, this.embedding, 0, this.scratch, 0);
      for (let r = 0; r < this.r1; r++) this.records[base + width + d * this.r1 + r] = this.scratch[r]!;
    }
  }

  /**
   * Sentence starts of a tokenized text: `out[i]` = 1 where token i starts a sentence (the first
   * token always does). `scores`, if given, receives each token's I and S scores (2 per token):
   * only from the plain path (`simd: false`).
   */
  predict(tokens: TokenizedText, scores?: Float64Array): Uint8Array {
    if (scores && this.kernel) throw new Error("I and S scores come from the plain path only (simd: false)");
    if (tokens.length === 0) return new Uint8Array(0);
    if (this.kernel && !scores) {
      const out = new Uint8Array(tokens.length);
      this.marginsSimd(tokens, this.kernel, (t, margin) => {
        out[t] = margin > 0 ? 1 : 0;
      });
      out[0] = 1;
      return out;
    }
    return this.predictJs(tokens, scores);
  }

  /**
   * S − I of every token, from the path in use (the kernel's float32, or the plain path's float64):
   * what the decisions compare with 0, for tests of one path against the other.
   */
  margins(tokens: TokenizedText): Float64Array {
    const out = new Float64Array(tokens.length);
    if (tokens.length === 0) return out;
    if (this.kernel)
      this.marginsSimd(tokens, this.kernel, (t, margin) => {
        out[t] = margin;
      });
    else {
      const scores = new Float64Array(2 * tokens.length);
      this.predictJs(tokens, scores);
      for (let t = 0; t < tokens.length; t++) out[t] = scores[2 * t + 1]! - scores[2 * t]!;
    }
    return out;
  }

  private marginsSimd(
    tokens: TokenizedText,
    kernel: SenterKernel,
    each: (token: number, margin: number) => void,
  ): void {
    const n = tokens.length;
    // Long texts in blocks: a token's decision depends on `pad` tokens on each side only, so a
    // block computed with that many neighbours on each side gives the same decisions, in bounded memory.
    const block = this.blockTokens;
    for (let from = 0; from < n; from += block) {
      const to = Math.min(n, from + block);
      const margins = this.blockMargins(tokens, from, to, kernel);
      for (let t = 0; t < to - from; t++) each(from + t, margins[t]!);
    }
  }

  /** S − I of tokens [from, to), in the kernel's memory (valid until its next call). */
  private blockMargins(tokens: TokenizedText, from: number, to: number, kernel: SenterKernel): Float32Array {
    const n = tokens.length;
    const m = to - from;
    const win = this.win;
    const layers = this.w.encoder.length;
    // thinc's with_array(pad): `pad` zero rows beyond the text's ends, every layer run over all rows.
    const pad = win * layers;
    const rows = m + 2 * pad;
    // The rows' slot ids (−1: beyond the text), then the new entries' records.
    const slotRow = this.reserveRows(rows);
    const lex = tokens.lex;
    const spacy = tokens.spacy;
    const notes = this.lexicon.notes;
    const stride = this.lexicon.noteWords;
    const slotNotes = this.slotNotes;
    for (let r = 0; r < rows; r++) {
      const t = from - pad + r;
      if (t < 0 || t >= n) {
        slotRow[r] = -1;
        continue;
      }
      const known = notes[lex[t]! * stride + slotNotes + spacy[t]!]!;
      slotRow[r] = known > 0 ? known - 1 : this.slot(lex[t]!, spacy[t]!);
    }
    this.flush(kernel);
    return kernel.margins(slotRow, rows, pad);
  }

  private reserveRows(rows: number): Int32Array {
    if (this.slotRow.length < rows) this.slotRow = new Int32Array(Math.max(rows, 256) * 2);
    return this.slotRow;
  }

  /** Plain JavaScript: the reference the kernel is tested against, and the way without SIMD. */
  private predictJs(tokens: TokenizedText, scores?: Float64Array): Uint8Array {
    const n = tokens.length;
    const out = new Uint8Array(n);
    const width = this.width;
    const win = this.win;
    const span = this.span;
    const layers = this.w.encoder;
    const pad = win * layers.length;
    const rows = n + 2 * pad;
    const slotRow = this.reserveRows(rows);
    for (let r = 0; r < rows; r++)
      slotRow[r] = r < pad || r >= pad + n ? -1 : this.slot(tokens.lex[r - pad]!, tokens.spacy[r - pad]!);
    const R = Math.max(...layers.map((l) => l.nO * l.nP));
    if (this.X.length < rows * width) {
      this.X = new Float64Array(rows * width * 2);
      this.Y = new Float64Array(rows * width * 2);
      this.pre = new Float64Array(rows * R * 2);
    }
    let X = this.X;
    let Y = this.Y;
    const pre = this.pre;
    const records = this.records;
    const rf = this.recordFloats;
    const first = elementAt(layers, 0);
    const r1 = this.r1;
    // First layer from the records: pre(r) = b + Σ_d P_d(row r + d − w), then maxout, norm, residual.
    for (let r = 0; r < rows; r++) {
      for (let j = 0; j < r1; j++) pre[j] = first.b[j]!;
      for (let d = 0; d < span; d++) {
        const src = r + d - win;
        const s = src < 0 || src >= rows ? -1 : slotRow[src]!;
        if (s < 0) continue;
        for (let j = 0; j < r1; j++) pre[j] = pre[j]! + records[s * rf + width + d * r1 + j]!;
      }
      maxoutNorm(first, pre, 0, X, r * width);
      const s = slotRow[r]!;
      if (s >= 0) for (let k = 0; k < width; k++) X[r * width + k] = X[r * width + k]! + records[s * rf + k]!;
    }
    for (let l = 1; l < layers.length; l++) {
      const layer = elementAt(layers, l);
      const Rl = layer.nO * layer.nP;
      for (let r = 0; r < rows; r++) {
        for (let j = 0; j < Rl; j++) {
          let sum = layer.b[j]!;
          for (let i = 0; i < layer.nI; i++) {
            const at = (r - win) * width + i;
            if (at >= 0 && at < rows * width) sum += layer.W[j * layer.nI + i]! * X[at]!;
          }
          pre[r * Rl + j] = sum;
        }
      }
      for (let r = 0; r < rows; r++) {
        maxoutNorm(layer, pre, r * Rl, Y, r * width);
        for (let k = 0; k < width; k++) Y[r * width + k] = Y[r * width + k]! + X[r * width + k]!;
      }
      const t = X;
      X = Y;
      Y = t;
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
      if (scores) {
        scores[2 * t] = i;
        scores[2 * t + 1] = s;
      }
    }
    out[0] = 1;
    return out;
  }
}
