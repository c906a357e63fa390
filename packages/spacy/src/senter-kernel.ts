// The JavaScript side of the senter's WebAssembly kernel (wasm/senter.ts, compiled into
// senter-wasm.ts): the weights laid out as the kernel reads them, the lookup tables its string ids
// need, a job per new lexicon entry, and the per-token calls. Only for the architecture the kernel
// is compiled for (every en_core_web_* 3.x senter); any other runs in senter.ts's plain path.

import { isHighSurrogate, isLowSurrogate } from "@convkit/pyregex";
import { committedModule, growMemory, type WasmMemory } from "@convkit/wasm";
import type { MaxoutNorm, SenterWeights } from "./folder.js";
import { hashString, type U64 } from "./hashing.js";
import { MAX_SHAPE_UNITS, wordShapeInto } from "./lexeme.js";
import * as K from "./senter-wasm.js";
import { symbolIds } from "./symbols.js";

const ATTR_CODES = {
  NORM: K.ATTR_NORM,
  PREFIX: K.ATTR_PREFIX,
  SUFFIX: K.ATTR_SUFFIX,
  SHAPE: K.ATTR_SHAPE,
  SPACY: K.ATTR_SPACY,
};

interface SenterExports {
  entries(jobs: number, n: number, scratch: number): void;
  first(slots: number, rows: number, out: number): void;
  later(layer: number, input: number, rows: number, out: number, scratch: number): void;
  scores(input: number, n: number, out: number): void;
  project(t: number, e: number, rows: number): void;
  stringIdAt(at: number, len: number, out: number): void;
}

const instantiate = committedModule<SenterExports>(K.SENTER_WASM);

/** Whether a senter has the kernel's shapes. */
function fits(w: SenterWeights): boolean {
  const layer = (l: MaxoutNorm, nI: number, nP = K.PIECES) => l.nO === K.WIDTH && l.nP === nP && l.nI === nI;
  return (
    w.width === K.WIDTH &&
    w.window === K.WINDOW &&
    w.embeddings.length === K.TABLES &&
    new Set(w.embeddings.map((e) => e.attr)).size === K.TABLES &&
    layer(w.mix, K.MIX_IN, K.MIX_PIECES) &&
    w.encoder.length >= 1 &&
    w.encoder.length <= K.MAX_LAYERS &&
    w.encoder.every((l) => layer(l, K.LAYER_IN)) &&
    w.outW.length === 2 * K.WIDTH &&
    w.labels.length === 2 &&
    w.labels.includes("I") &&
    w.labels.includes("S")
  );
}

const align = (n: number, to = 16) => Math.ceil(n / to) * to;

/** UTF-8 of `units[0, n)` (well-formed UTF-16, a word shape's) at `u8[at]`; the bytes written. */
function utf8FromUnits(units: Uint16Array, n: number, u8: Uint8Array, at: number): number {
  const start = at;
  for (let k = 0; k < n; k++) {
    let c = units[k]!;
    if (c < 0x80) u8[at++] = c;
    else if (c < 0x800) {
      u8[at++] = 0xc0 | (c >> 6);
      u8[at++] = 0x80 | (c & 0x3f);
    } else if (isHighSurrogate(c) && k + 1 < n && isLowSurrogate(units[k + 1]!)) {
      c = 0x10000 + ((c - 0xd800) << 10) + (units[++k]! - 0xdc00);
      u8[at++] = 0xf0 | (c >> 18);
      u8[at++] = 0x80 | ((c >> 12) & 0x3f);
      u8[at++] = 0x80 | ((c >> 6) & 0x3f);
      u8[at++] = 0x80 | (c & 0x3f);
    } else {
      // A lone surrogate as TextEncoder writes it: U+FFFD.
      if (isHighSurrogate(c) || isLowSurrogate(c)) c = 0xfffd;
      u8[at++] = 0xe0 | (c >> 12);
      u8[at++] = 0x80 | ((c >> 6) & 0x3f);
      u8[at++] = 0x80 | (c & 0x3f);
    }
  }
  return at - start;
}

/** An open-addressing table of u64 pairs (key 0: empty) at `at`: `pairs` (a power of two) slots. */
function writeTable(view: DataView, at: number, pairs: number, entries: [U64, U64][]): void {
  const mask = pairs - 1;
  for (const [k, v] of entries) {
    let i = k.lo & mask;
    while (view.getUint32(at + i * 16, true) !== 0 || view.getUint32(at + i * 16 + 4, true) !== 0)
      i = (i + 1) & mask;
    view.setUint32(at + i * 16, k.lo, true);
    view.setUint32(at + i * 16 + 4, k.hi, true);
    view.setUint32(at + i * 16 + 8, v.lo, true);
    view.setUint32(at + i * 16 + 12, v.hi, true);
  }
}

const tableSize = (n: number) => {
  let p = 16;
  while (p < n * 2) p *= 2;
  return p;
};

/** The kernel for one senter (its memory: weights, tables, records, then a text's scratch). */
export class SenterKernel {
  private readonly memory: WasmMemory;
  private readonly fn: SenterExports;
  private readonly layers: number;
  /** Byte address of the scratch `entries` and `later` use. */
  private readonly scratchAt: number;
  private readonly recordsAt: number;
  private capacity = 1 << 12;
  private readonly encoder = new TextEncoder();
  /** A word shape's code units on their way into the kernel's memory. */
  private readonly shape = new Uint16Array(MAX_SHAPE_UNITS);

  private constructor(w: SenterWeights, lexemeNorm: [U64, U64][]) {
    const { memory, exports } = instantiate();
    this.memory = memory;
    this.fn = exports;
    this.layers = w.encoder.length;
    let at = align(K.STATIC_END);
    // Each embedding table projected through the mixing layer: MIX_ROWS floats a row.
    const tableAt = w.embeddings.map((e) => {
      const a = at;
      at = align(at + e.rows * K.MIX_ROWS * 4);
      return a;
    });
    const normsPairs = tableSize(lexemeNorm.length);
    const normsAt = at;
    at += normsPairs * 16;
    const symbols = symbolIds().map(([name, id]): [U64, U64] => [hashString(name), { hi: 0, lo: id }]);
    const symbolsPairs = tableSize(symbols.length);
    const symbolsAt = at;
    at += symbolsPairs * 16;
    this.scratchAt = at;
    at += align(Math.max(K.MIX_ROWS, K.ROWS) * 4);
    this.recordsAt = at;
    this.ensure(this.textAt() + (1 << 20));
    const buffer = this.memory.buffer;
    const i32 = new Int32Array(buffer);
    const f32 = new Float32Array(buffer);
    w.embeddings.forEach((e, t) => {
      i32[K.SLOT_TABLE_AT + t] = tableAt[t]!;
      i32[K.SLOT_TABLE_ROWS + t] = e.rows;
      i32[K.SLOT_TABLE_SEED + t] = e.seed;
      i32[K.SLOT_TABLE_ATTR + t] = ATTR_CODES[e.attr];
    });
    i32[K.SLOT_RECORDS_AT] = this.recordsAt;
    i32[K.SLOT_NORMS_AT] = normsAt;
    i32[K.SLOT_NORMS_MASK] = normsPairs - 1;
    i32[K.SLOT_SYMBOLS_AT] = symbolsAt;
    i32[K.SLOT_SYMBOLS_MASK] = symbolsPairs - 1;
    const view = new DataView(buffer);
    writeTable(view, normsAt, normsPairs, lexemeNorm);
    writeTable(view, symbolsAt, symbolsPairs, symbols);
    const layerAt = (l: MaxoutNorm, wAt: number, bAt: number, gAt: number, betaAt: number) => {
      const R = l.nO * l.nP;
      for (let row = 0; row < R; row++) {
        // thinc's row (output k, piece p) → piece-major.
        const pm = (row % l.nP) * l.nO + Math.floor(row / l.nP);
        f32[bAt / 4 + pm] = l.b[row]!;
        for (let j = 0; j < l.nI; j++) f32[wAt / 4 + j * R + pm] = l.W[row * l.nI + j]!;
      }
      f32.set(l.G, gAt / 4);
      f32.set(l.beta, betaAt / 4);
    };
    layerAt(w.mix, K.MIX_W_AT, K.MIX_B_AT, K.MIX_G_AT, K.MIX_BETA_AT);
    w.encoder.forEach((l, i) => {
      const base = K.LAYERS_AT + i * K.LAYER_BYTES;
      const b = base + K.LAYER_IN * K.ROWS * 4;
      layerAt(l, base, b, b + K.ROWS * 4, b + K.ROWS * 4 + K.WIDTH * 4);
    });
    const s = w.labels.indexOf("S");
    const i = 1 - s;
    for (let k = 0; k < K.WIDTH; k++)
      f32[K.SCORE_AT / 4 + k] = w.outW[s * K.WIDTH + k]! - w.outW[i * K.WIDTH + k]!;
    f32[K.SCORE_AT / 4 + K.WIDTH] = w.outB[s]! - w.outB[i]!;
    // Row r of table t projected: Σ_i W[t·WIDTH + i]·E_t[r, i] for each of the layer's MIX_ROWS rows
    // (W as laid out above: input-major, piece-major rows), summed in float64, stored as float32,
    // by the kernel from the table's rows copied to the (still empty) text region (last: a growth of
    // the memory would leave the views above empty).
    w.embeddings.forEach((e, t) => {
      const at = this.textAt();
      this.ensure(at + e.E.length * 4);
      new Float32Array(this.memory.buffer, at, e.E.length).set(e.E);
      this.fn.project(t, at, e.rows);
    });
  }

  /** The kernel for a senter, or undefined for another architecture. `lexemeNorm`: (orth id, norm id) pairs. */
  static for(w: SenterWeights, lexemeNorm: [U64, U64][]): SenterKernel | undefined {
    return fits(w) ? new SenterKernel(w, lexemeNorm) : undefined;
  }

  /** Byte address where a text's scratch may start (after the reserved records). */
  textAt(): number {
    return this.recordsAt + this.capacity * K.RECORD_BYTES;
  }

  private i32 = new Int32Array(0);
  private f32 = new Float32Array(0);

  /**
   * Views of the memory as it is now. Growing the memory detaches its old buffer, and the views on
   * it go empty: a length read, instead of a call into the engine for `memory.buffer` each time.
   */
  private views(): void {
    if (this.i32.length !== 0) return;
    this.i32 = new Int32Array(this.memory.buffer);
    this.f32 = new Float32Array(this.i32.buffer);
  }

  /** Grows the memory to `bytes` if smaller. */
  ensure(bytes: number): void {
    growMemory(this.memory, bytes);
  }

  /**
   * Makes room for `slots` records (the text region moves up). Growth is by at most 8,192 records
   * (3.5 MiB) past the first 8,192: the cache stops a little past its limit, and doubling there
   * would reserve nearly twice the memory it uses.
   */
  reserveSlots(slots: number): void {
    if (slots <= this.capacity) return;
    this.capacity = Math.max(slots, Math.min(this.capacity * 2, this.capacity + 8192));
    this.ensure(this.textAt() + (1 << 20));
  }

  /**
   * Fills records: job j is a new entry's slot, trailing space, text and norm (`strings[2j]`,
   * `strings[2j + 1]`), whether the norm is a special case's, and its shape (computed here, from
   * the text, straight into the kernel's memory). Strings and jobs are written at the text region,
   * which is free between texts' blocks.
   */
  entries(slots: Int32Array, spacy: Uint8Array, strings: string[], fixed: Uint8Array, n: number): void {
    let at = this.textAt();
    const jobsAt = at;
    at += n * K.JOB_WORDS * 4;
    // At most 3 UTF-8 bytes per UTF-16 unit; a shape has no more units than its text (or is LONG).
    let bytes = 0;
    for (let j = 0; j < n; j++) bytes += (2 * strings[2 * j]!.length + strings[2 * j + 1]!.length) * 3 + 4;
    this.ensure(at + bytes + 16);
    const buffer = this.memory.buffer;
    const i32 = new Int32Array(buffer, jobsAt, n * K.JOB_WORDS);
    const u8 = new Uint8Array(buffer);
    const put = (s: string): number => {
      // Most token texts are ASCII: copied unit by unit, with no view made per string.
      let k = 0;
      while (k < s.length) {
        const c = s.charCodeAt(k);
        if (c >= 0x80) break;
        u8[at + k] = c;
        k++;
      }
      const written =
        k === s.length ? k : this.encoder.encodeInto(s, u8.subarray(at, at + s.length * 3)).written;
      at += written;
      return written;
    };
    const shape = this.shape;
    for (let j = 0; j < n; j++) {
      const o = j * K.JOB_WORDS;
      i32[o + K.JOB_SLOT] = slots[j]!;
      i32[o + K.JOB_SPACY] = spacy[j]!;
      i32[o + K.JOB_ORTH_AT] = at;
      i32[o + K.JOB_ORTH_LEN] = put(strings[2 * j]!);
      i32[o + K.JOB_NORM_AT] = at;
      i32[o + K.JOB_NORM_LEN] = put(strings[2 * j + 1]!);
      const units = wordShapeInto(strings[2 * j]!, shape);
      i32[o + K.JOB_SHAPE_AT] = at;
      const written = units < 0 ? put("LONG") : utf8FromUnits(shape, units, u8, at);
      if (units >= 0) at += written;
      i32[o + K.JOB_SHAPE_LEN] = written;
      i32[o + K.JOB_NORM_FIXED] = fixed[j]!;
    }
    this.fn.entries(jobsAt, n, this.scratchAt);
  }

  /**
   * S − I of tokens [pad, rows − pad) of a block whose rows' record slots are `slotRow` (−1: beyond
   * the text): the encoder over all rows (thinc pads each layer's input), scores of the middle.
   */
  margins(slotRow: Int32Array, rows: number, pad: number): Float32Array {
    const win = K.WINDOW;
    const rowBytes = K.WIDTH * 4;
    const slotAt = this.textAt();
    const aAt = slotAt + align((rows + 2 * win) * 4);
    const bAt = aAt + (rows + 2 * win) * rowBytes;
    const scoreAt = bAt + (rows + 2 * win) * rowBytes;
    const m = rows - 2 * pad;
    this.ensure(scoreAt + m * 4 + 16);
    this.views();
    const { i32, f32 } = this;
    const slots = slotAt >> 2;
    i32.fill(-1, slots, slots + win);
    i32.set(slotRow.subarray(0, rows), slots + win);
    i32.fill(-1, slots + win + rows, slots + rows + 2 * win);
    // Zero rows around both row buffers (an earlier, longer block may have left rows there).
    for (const at of [aAt, bAt]) {
      f32.fill(0, at / 4, at / 4 + win * K.WIDTH);
      f32.fill(0, at / 4 + (win + rows) * K.WIDTH, at / 4 + (2 * win + rows) * K.WIDTH);
    }
    let inAt = aAt + win * rowBytes;
    let outAt = bAt + win * rowBytes;
    this.fn.first(slotAt, rows, inAt);
    for (let l = 1; l < this.layers; l++) {
      // Layer l is needed on the block's rows and win·(layers − 1 − l) rows around them.
      const skip = pad - win * (this.layers - 1 - l);
      this.fn.later(l, inAt + skip * rowBytes, rows - 2 * skip, outAt + skip * rowBytes, this.scratchAt);
      const t = inAt;
      inAt = outAt;
      outAt = t;
    }
    this.fn.scores(inAt + pad * rowBytes, m, scoreAt);
    this.views();
    return this.f32.subarray(scoreAt >> 2, (scoreAt >> 2) + m);
  }

  /** Row `r` of embedding table `t` as the kernel holds it, projected through the mixing layer (MIX_ROWS floats, piece-major; for tests). */
  projectedRow(t: number, r: number): Float32Array {
    this.views();
    const at = (this.i32[K.SLOT_TABLE_AT + t]! >> 2) + r * K.MIX_ROWS;
    return this.f32.slice(at, at + K.MIX_ROWS);
  }

  /** spaCy's StringStore id of a string as the kernel computes it (for tests). */
  stringId(s: string): U64 {
    const at = this.textAt();
    this.ensure(at + s.length * 3 + 16);
    const u8 = new Uint8Array(this.memory.buffer);
    const len = this.encoder.encodeInto(s, u8.subarray(at + 8, at + 8 + s.length * 3)).written;
    this.fn.stringIdAt(at + 8, len, at);
    const u32 = new Uint32Array(this.memory.buffer, at, 2);
    return { hi: u32[1]!, lo: u32[0]! };
  }
}
