// spaCy's `senter` (a Tagger.v2 over Tok2Vec.v2: MultiHashEmbed.v2 + MaxoutWindowEncoder.v2) as
// thinc computes it: per token, hash embeddings of the lexical attributes summed over thinc's four
// keys, a maxout + layer norm mixing them, residual window convolutions (maxout + layer norm) over
// the zero-padded sequence, then two scores, I and S. A token starts a sentence when S scores higher.
//
// Restructured for speed, not approximated: what depends only on a token's lexicon entry and its
// trailing space (the embedding, and each window position's share of the first encoder layer) is
// computed once per entry and kept; the later layers' window products run in a WebAssembly SIMD
// kernel. Float sums run in another order than numpy/BLAS, which moves scores in their last bits
// only: a decision could differ only where S and I are within float32 rounding of each other.
import type { HashEmbedTable, MaxoutNorm, SenterWeights } from "./folder.js";
import { hashId128, type U64 } from "./hashing.js";
import { attributeIds, lexemeNormOf, lexemeStrings } from "./lexeme.js";
import { type SenterKernel, senterKernel } from "./simd.js";
import type { Lexicon, TokenizedText } from "./tokenizer.js";

/** Layer norm's variance epsilon in thinc. */
const LN_EPS = 1e-8;

/** maxout over `nP` pieces of `pre[po..]`, then thinc's layer norm, into `out[o..o+nO)`. */
function maxoutNorm(layer: MaxoutNorm, pre: Float32Array, po: number, out: Float64Array, o: number): void {
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

/** `pre[r] = b[r] + Σ_j W[r, j]·x[xo + j]` for the first `rows` rows of W (row length nI). */
function affine(
  W: Float32Array,
  b: Float32Array | null,
  nI: number,
  rows: number,
  x: Float64Array,
  xo: number,
  pre: Float32Array,
  po: number,
): void {
  for (let r = 0; r < rows; r++) {
    let s = b ? b[r]! : 0;
    const w = r * nI;
    for (let j = 0; j < nI; j++) s += W[w + j]! * x[xo + j]!;
    pre[po + r] = s;
  }
}

/** Feature keys cached before the caches are emptied (the lexicon is then renewed with them). */
export const ENTRY_CACHE_LIMIT = 1 << 16;
/** Slots the SIMD kernel reserves: the limit, plus what one text may add before the check. */
const KERNEL_SLOTS = ENTRY_CACHE_LIMIT + (1 << 14);

/** How the senter computes: `simd` (the default where WebAssembly SIMD runs) or plain JavaScript. */
export interface SenterOptions {
  simd?: boolean;
}

/** The senter of one pipeline, bound to a tokenizer's lexicon. Not thread-safe; one per worker. */
export class Senter {
  private readonly width: number;
  private readonly win: number;
  /** Rows of the first encoder layer's affine map (nO·nP). */
  private readonly r1: number;
  /** Per feature key (lexicon entry·2 + trailing space): its slot in the caches, or −1. */
  private slotOf = new Int32Array(0);
  private slots = 0;
  /** Per slot: the embedding (width floats). */
  private embeds = new Float64Array(0);
  /** Per slot: the first layer's affine map of the embedding at each window position ((2w+1)·r1 floats). */
  private projections = new Float64Array(0);
  private readonly hashKeys = new Uint32Array(4);
  private readonly concat: Float64Array;
  private readonly scratch: Float32Array;
  private readonly kernel: SenterKernel | undefined;
  private f32 = new Float32Array(0);
  private i32 = new Int32Array(0);
  /** Rows of the current text's layer outputs (padded), width floats each. */
  private X = new Float64Array(0);
  private Y = new Float64Array(0);
  private pre = new Float32Array(0);
  private slotRow = new Int32Array(0);

  constructor(
    private readonly w: SenterWeights,
    private readonly lexicon: Lexicon,
    private readonly lexemeNorm: ReadonlyMap<string, string>,
    options: SenterOptions = {},
  ) {
    this.width = w.width;
    this.win = w.window;
    const first = w.encoder[0]!;
    this.r1 = first.nO * first.nP;
    this.concat = new Float64Array(w.mix.nI);
    this.scratch = new Float32Array(
      Math.max(w.mix.nO * w.mix.nP, this.r1, ...w.encoder.map((l) => l.nO * l.nP)),
    );
    this.kernel = options.simd === false ? undefined : senterKernel(w, KERNEL_SLOTS);
    this.views();
  }

  private views(): void {
    if (!this.kernel) return;
    this.f32 = new Float32Array(this.kernel.memory.buffer);
    this.i32 = new Int32Array(this.kernel.memory.buffer);
  }

  /** Entries whose features are cached (the caller renews the lexicon past {@link ENTRY_CACHE_LIMIT}). */
  get cachedEntries(): number {
    return this.slots;
  }

  /** Forgets every cached feature (the lexicon's entries are about to be renumbered). */
  clear(): void {
    this.slotOf.fill(-1);
    this.slots = 0;
  }

  /** The cache slot of feature key `key`, computing the embedding and first-layer projections on first use. */
  private slot(lex: number, spacy: number): number {
    const key = lex * 2 + spacy;
    if (key >= this.slotOf.length) {
      const grown = new Int32Array(Math.max(key + 1, this.slotOf.length * 2, 4096)).fill(-1);
      grown.set(this.slotOf);
      this.slotOf = grown;
    }
    let s = this.slotOf[key]!;
    if (s >= 0) return s;
    s = this.slots++;
    // Past the kernel's slots an entry lives in the JavaScript caches only (its text is then computed in JavaScript).
    const kernel = s < KERNEL_SLOTS ? this.kernel : undefined;
    const width = this.width;
    const span = 2 * this.win + 1;
    if ((s + 1) * width > this.embeds.length) {
      const cap = Math.max(1024, this.embeds.length / width) * 2;
      const e = new Float64Array(cap * width);
      e.set(this.embeds);
      this.embeds = e;
      const p = new Float64Array(cap * span * this.r1);
      p.set(this.projections);
      this.projections = p;
    }
    this.computeEmbedding(lex, spacy, this.embeds, s * width);
    // First encoder layer, position d of the window: W[:, d·width .. (d+1)·width) · embedding.
    const first = this.w.encoder[0]!;
    const pre = this.scratch;
    for (let d = 0; d < span; d++) {
      for (let r = 0; r < this.r1; r++) {
        let sum = 0;
        const wAt = r * first.nI + d * width;
        for (let k = 0; k < width; k++) sum += first.W[wAt + k]! * this.embeds[s * width + k]!;
        pre[r] = sum;
      }
      this.projections.set(pre.subarray(0, this.r1), (s * span + d) * this.r1);
      if (kernel) kernel.piecesMajor(first, pre, 0, this.f32, kernel.projAt / 4 + (s * span + d) * this.r1);
    }
    if (kernel)
      for (let k = 0; k < width; k++)
        this.f32[kernel.embedAt / 4 + s * width + k] = this.embeds[s * width + k]!;
    this.slotOf[key] = s;
    return s;
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
    const mix = this.w.mix;
    affine(mix.W, mix.b, mix.nI, mix.nO * mix.nP, concat, 0, this.scratch, 0);
    maxoutNorm(mix, this.scratch, 0, out, o);
  }

  /** thinc's HashEmbed for one id: the four hashed rows summed (in float32, as thinc's axpy). */
  private gatherAdd(table: HashEmbedTable, id: U64, out: Float64Array, o: number): void {
    const width = this.width;
    hashId128(id, table.seed, this.hashKeys, 0);
    for (let k = 0; k < width; k++) out[o + k] = 0;
    for (let h = 0; h < 4; h++) {
      const row = (this.hashKeys[h]! % table.rows) * width;
      for (let k = 0; k < width; k++) out[o + k] = Math.fround(out[o + k]! + table.E[row + k]!);
    }
  }

  private reserve(rows: number): void {
    const width = this.width;
    if (this.X.length < rows * width) {
      const n = Math.max(rows, 256) * 2;
      this.X = new Float64Array(n * width);
      this.Y = new Float64Array(n * width);
      this.pre = new Float32Array(n * Math.max(...this.w.encoder.map((l) => l.nO * l.nP)));
      this.slotRow = new Int32Array(n);
    }
  }

  /**
   * Sentence starts of a tokenized text: `out[i]` = 1 where token i starts a sentence (the first
   * token always does). `scores`, if given, receives each token's I and S scores (2 per token).
   */
  predict(tokens: TokenizedText, scores?: Float64Array): Uint8Array {
    const n = tokens.length;
    if (n === 0) return new Uint8Array(0);
    if (this.kernel && !scores) {
      const out = this.predictSimd(tokens);
      if (out) return out;
    }
    return this.predictJs(tokens, scores);
  }

  /** The kernel's way; undefined when the text's entries do not fit the kernel's slots. */
  private predictSimd(tokens: TokenizedText): Uint8Array | undefined {
    const kernel = this.kernel!;
    const n = tokens.length;
    const width = this.width;
    const win = this.win;
    const layers = this.w.encoder.length;
    const pad = win * layers;
    const rows = n + 2 * pad;
    const rowBytes = width * 4;
    // Text region: slot ids (win −1 on each side), two row buffers with win zero rows around, scores.
    const slotAt = kernel.textAt;
    const aAt = slotAt + Math.ceil(((rows + 2 * win) * 4) / 16) * 16;
    const bAt = aAt + (rows + 2 * win) * rowBytes;
    const scoreAt = bAt + (rows + 2 * win) * rowBytes;
    const need = scoreAt + n * 4 + 16;
    if (need > kernel.memory.buffer.byteLength) {
      kernel.memory.grow(Math.ceil((need - kernel.memory.buffer.byteLength) / 65536));
      this.views();
    }
    const i32 = this.i32;
    const s0 = slotAt / 4;
    for (let k = 0; k < win; k++) {
      i32[s0 + k] = -1;
      i32[s0 + win + rows + k] = -1;
    }
    for (let r = 0; r < rows; r++) {
      let s = -1;
      if (r >= pad && r < pad + n) {
        s = this.slot(tokens.lex[r - pad]!, tokens.spacy[r - pad]!);
        if (s >= kernel.capacity) return undefined;
      }
      i32[s0 + win + r] = s;
    }
    const f32 = this.f32;
    for (const at of [aAt, bAt]) {
      f32.fill(0, at / 4, at / 4 + win * width);
      f32.fill(0, at / 4 + (win + rows) * width, at / 4 + (2 * win + rows) * width);
    }
    let inAt = aAt + win * rowBytes;
    let outAt = bAt + win * rowBytes;
    kernel.first(slotAt, rows, inAt);
    for (let l = 1; l < layers; l++) {
      // Layer l is needed on the real rows and win·(layers − 1 − l) rows around them.
      const skip = (pad - win * (layers - 1 - l)) * rowBytes;
      kernel.later(l, inAt + skip, rows - 2 * (skip / rowBytes), outAt + skip);
      const t = inAt;
      inAt = outAt;
      outAt = t;
    }
    kernel.scores(inAt + pad * rowBytes, n, scoreAt);
    const out = new Uint8Array(n);
    const sc = scoreAt / 4;
    for (let t = 0; t < n; t++) out[t] = f32[sc + t]! > 0 ? 1 : 0;
    out[0] = 1;
    return out;
  }

  /** Plain JavaScript: the reference the kernel is tested against, and the way without SIMD. */
  private predictJs(tokens: TokenizedText, scores?: Float64Array): Uint8Array {
    const n = tokens.length;
    const out = new Uint8Array(n);
    const width = this.width;
    const win = this.win;
    const span = 2 * win + 1;
    const layers = this.w.encoder;
    // thinc's with_array(pad): `pad` zero rows on each side, every layer run over all rows.
    const pad = win * layers.length;
    const rows = n + 2 * pad;
    this.reserve(rows);
    const slotRow = this.slotRow;
    for (let r = 0; r < rows; r++)
      slotRow[r] = r < pad || r >= pad + n ? -1 : this.slot(tokens.lex[r - pad]!, tokens.spacy[r - pad]!);
    let X = this.X;
    let Y = this.Y;
    // First layer from the cached projections: pre(r) = b + Σ_d P_d(row r + d − w).
    const first = layers[0]!;
    const r1 = this.r1;
    const proj = this.projections;
    const embeds = this.embeds;
    const pre = this.pre;
    for (let r = 0; r < rows; r++) {
      for (let j = 0; j < r1; j++) pre[j] = first.b[j]!;
      for (let d = 0; d < span; d++) {
        const src = r + d - win;
        if (src < 0 || src >= rows) continue;
        const s = slotRow[src]!;
        if (s < 0) continue;
        const at = (s * span + d) * r1;
        for (let j = 0; j < r1; j++) pre[j] = pre[j]! + proj[at + j]!;
      }
      maxoutNorm(first, pre, 0, X, r * width);
      const s = slotRow[r]!;
      if (s >= 0)
        for (let k = 0; k < width; k++) X[r * width + k] = X[r * width + k]! + embeds[s * width + k]!;
    }
    // Later layers: window products in the SIMD kernel (or in JS), then maxout, norm, residual.
    for (let l = 1; l < layers.length; l++) {
      const layer = layers[l]!;
      const R = layer.nO * layer.nP;
      for (let r = 0; r < rows; r++) {
        const wAt = (r - win) * width;
        for (let j = 0; j < R; j++) {
          let sum = layer.b[j]!;
          for (let i = 0; i < layer.nI; i++) {
            const at = wAt + i;
            if (at >= 0 && at < rows * width) sum += layer.W[j * layer.nI + i]! * X[at]!;
          }
          pre[r * R + j] = sum;
        }
      }
      const P = pre;
      const po = 0;
      for (let r = 0; r < rows; r++) {
        maxoutNorm(layer, P, po + r * R, Y, r * width);
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
