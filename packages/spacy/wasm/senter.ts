// AssemblyScript: spaCy's senter (thinc's Tok2Vec + softmax Tagger) for the one architecture of
// shared.ts, as WebAssembly SIMD. `node wasm/build.mjs` compiles it into src/senter-wasm.ts
// (committed; a test checks it is what this source, norm.ts and shared.ts compile to).
//
// Per new lexicon entry (`entries`): the string ids spaCy's StringStore gives its attributes
// (MurmurHash64A, native 64-bit here), thinc's HashEmbed rows (MurmurHash3 x64_128 of each id),
// the mixing maxout + layer norm, and the entry's share of the first encoder layer at each window
// position: a record. Per token (`first`, `later`, `scores`): the encoder from the records, and
// S − I; each layer's maxout and layer norm are norm.ts's. Only IEEE operations (no relaxed SIMD):
// every CPU computes the same bits. Sums run in a fixed order (bias first, then inputs in order).
// The mixing layer is linear before its maxout, so each embedding table is held projected through
// it (a row of the table times the layer's W: MIX_ROWS floats): an entry's mix is its bias plus the
// projected rows its ids hash to, 20 row sums instead of an 80 × 48 product. The same function as
// src/senter.ts's plain path (embeddings summed, then the product), rounded in another order.

import { lanes, maxoutAt, maxoutNorm, normRows } from "./norm";
import {
  ATTR_NORM,
  ATTR_PREFIX,
  ATTR_SHAPE,
  ATTR_SUFFIX,
  JOB_NORM_AT,
  JOB_NORM_FIXED,
  JOB_NORM_LEN,
  JOB_ORTH_AT,
  JOB_ORTH_LEN,
  JOB_SHAPE_AT,
  JOB_SHAPE_LEN,
  JOB_SLOT,
  JOB_SPACY,
  JOB_WORDS,
  LAYER_BYTES,
  LAYER_IN,
  LAYERS_AT,
  MIX_B_AT,
  MIX_BETA_AT,
  MIX_G_AT,
  MIX_ROWS,
  MIX_W_AT,
  RECORD_BYTES,
  ROWS,
  SCORE_AT,
  SLOT_NORMS_AT,
  SLOT_NORMS_MASK,
  SLOT_RECORDS_AT,
  SLOT_SYMBOLS_AT,
  SLOT_SYMBOLS_MASK,
  SLOT_TABLE_AT,
  SLOT_TABLE_ATTR,
  SLOT_TABLE_ROWS,
  SLOT_TABLE_SEED,
  SLOT_TOUCHED,
  TABLES,
  WIDTH,
  WINDOW,
} from "./shared";

const ROW_BYTES: i32 = WIDTH * 4;
const MIX_ROW_BYTES: i32 = MIX_ROWS * 4;
const SPAN: i32 = 2 * WINDOW + 1;
const M64: u64 = 0xc6a4a7935bd1e995;

function header(slot: i32): i32 {
  return load<i32>(<usize>(slot << 2));
}

/** spaCy's `hash_string`: MurmurHash64A of `len` bytes at `p`, seed 1. */
function murmur64A(p: usize, len: i32): u64 {
  let h: u64 = 1 ^ (<u64>len * M64);
  const end = p + <usize>(len & ~7);
  for (; p < end; p += 8) {
    let k = load<u64>(p);
    k *= M64;
    k ^= k >> 47;
    k *= M64;
    h ^= k;
    h *= M64;
  }
  const rest = len & 7;
  if (rest > 0) {
    let t: u64 = 0;
    for (let j = rest - 1; j >= 0; j--) t = (t << 8) | <u64>load<u8>(p + j);
    h ^= t;
    h *= M64;
  }
  h ^= h >> 47;
  h *= M64;
  h ^= h >> 47;
  return h;
}

/** In an open-addressing table of (key, value) u64 pairs at `at` (mask + 1 pairs, key 0 empty): `key`'s value, or `missing`. */
function lookup(at: i32, mask: i32, key: u64, missing: u64): u64 {
  let i = <i32>(key & <u64>mask);
  for (;;) {
    const p = <usize>(at + (i << 4));
    const k = load<u64>(p);
    if (k === key) return load<u64>(p, 8);
    if (k === 0) break;
    i = (i + 1) & mask;
  }
  return missing;
}

/** spaCy's `StringStore` id of `len` UTF-8 bytes at `p`: 0 for "", a built-in symbol's number, else the hash. */
function stringId(p: usize, len: i32): u64 {
  if (len === 0) return 0;
  const h = murmur64A(p, len);
  return lookup(header(SLOT_SYMBOLS_AT), header(SLOT_SYMBOLS_MASK), h, h);
}

/** Bytes of the UTF-8 sequence led by byte `b`. */
function seqLen(b: u32): i32 {
  return b < 0xc0 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
}

function fmix64(k: u64): u64 {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccd;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53;
  k ^= k >> 33;
  return k;
}

/**
 * Adds the mixing layer's share of thinc's HashEmbed vector of `id` (its four hashed rows, each
 * projected through the layer: MIX_ROWS floats a row) into the MIX_ROWS floats at `acc`, rows in order.
 */
function addProjected(table: i32, id: u64, acc: usize): void {
  // thinc's MurmurHash3_x86_128_uint64: MurmurHash3 x64_128 of the id's 8 bytes.
  const seed: u64 = <u64>load<u32>(<usize>((SLOT_TABLE_SEED + table) << 2));
  let k1 = id * 0x87c37b91114253d5;
  k1 = rotl<u64>(k1, 31);
  k1 *= 0x4cf5ad432745937f;
  let h1 = seed ^ k1 ^ 8;
  let h2 = seed ^ 8;
  h1 += h2;
  h2 += h1;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 += h2;
  h2 += h1;
  const rows = <u32>header(SLOT_TABLE_ROWS + table);
  const P = <usize>header(SLOT_TABLE_AT + table);
  const r0 = P + <usize>((<u32>h1 % rows) * MIX_ROW_BYTES);
  const r1 = P + <usize>((<u32>(h1 >> 32) % rows) * MIX_ROW_BYTES);
  const r2 = P + <usize>((<u32>h2 % rows) * MIX_ROW_BYTES);
  const r3 = P + <usize>((<u32>(h2 >> 32) % rows) * MIX_ROW_BYTES);
  for (let q: usize = 0; q < <usize>MIX_ROW_BYTES; q += 16) {
    let v = f32x4.add(v128.load(acc + q), v128.load(r0 + q));
    v = f32x4.add(v, v128.load(r1 + q));
    v = f32x4.add(v, v128.load(r2 + q));
    v128.store(acc + q, f32x4.add(v, v128.load(r3 + q)));
  }
}

/**
 * acc += Wᵀ·x, acc being ROWS floats at `acc`: `n` inputs at `x` (f32), W input-major at `w` (ROWS
 * floats an input), in input order. The sums stay in locals (registers) through the loop.
 */
function matVec(w: usize, x: usize, n: i32, acc: usize): void {
  let a0 = v128.load(acc);
  let a1 = v128.load(acc, 16);
  let a2 = v128.load(acc, 32);
  let a3 = v128.load(acc, 48);
  let a4 = v128.load(acc, 64);
  let a5 = v128.load(acc, 80);
  let a6 = v128.load(acc, 96);
  let a7 = v128.load(acc, 112);
  const end = x + ((<usize>n) << 2);
  for (; x < end; x += 4, w += <usize>ROWS * 4) {
    const xs = f32x4.splat(load<f32>(x));
    a0 = f32x4.add(a0, f32x4.mul(v128.load(w), xs));
    a1 = f32x4.add(a1, f32x4.mul(v128.load(w, 16), xs));
    a2 = f32x4.add(a2, f32x4.mul(v128.load(w, 32), xs));
    a3 = f32x4.add(a3, f32x4.mul(v128.load(w, 48), xs));
    a4 = f32x4.add(a4, f32x4.mul(v128.load(w, 64), xs));
    a5 = f32x4.add(a5, f32x4.mul(v128.load(w, 80), xs));
    a6 = f32x4.add(a6, f32x4.mul(v128.load(w, 96), xs));
    a7 = f32x4.add(a7, f32x4.mul(v128.load(w, 112), xs));
  }
  v128.store(acc, a0);
  v128.store(acc, a1, 16);
  v128.store(acc, a2, 32);
  v128.store(acc, a3, 48);
  v128.store(acc, a4, 64);
  v128.store(acc, a5, 80);
  v128.store(acc, a6, 96);
  v128.store(acc, a7, 112);
}

/** ROWS floats from `from` to `to`. */
function copyRows(from: usize, to: usize): void {
  for (let q: usize = 0; q < <usize>ROWS * 4; q += 16) v128.store(to + q, v128.load(from + q));
}

/**
 * Fills the records of `n` new entries described by the jobs at `jobs` (JOB_WORDS i32 each);
 * `scratch` (16-byte aligned) has room for MIX_ROWS floats.
 */
export function entries(jobs: usize, n: i32, scratch: usize): void {
  const acc = scratch;
  const zero = f32x4.splat(0);
  const recordsAt = <usize>header(SLOT_RECORDS_AT);
  for (let j = 0; j < n; j++) {
    const job = jobs + <usize>(j * JOB_WORDS * 4);
    const orth = <usize>load<i32>(job, JOB_ORTH_AT * 4);
    const orthLen = load<i32>(job, JOB_ORTH_LEN * 4);
    const orthId = stringId(orth, orthLen);
    let normId: u64 = 0;
    let haveNorm = false;
    if (load<i32>(job, JOB_NORM_FIXED * 4) === 0) {
      // The pipeline's lexeme_norm table, keyed by the text's id (0: not there; no id is 0 but "").
      normId = lookup(header(SLOT_NORMS_AT), header(SLOT_NORMS_MASK), orthId, 0);
      haveNorm = normId !== 0;
    }
    if (!haveNorm)
      normId = stringId(<usize>load<i32>(job, JOB_NORM_AT * 4), load<i32>(job, JOB_NORM_LEN * 4));
    // PREFIX: the first character; SUFFIX: the last three.
    const prefixId = stringId(orth, seqLen(load<u8>(orth)));
    let cut = orthLen;
    for (let k = 0; k < 3 && cut > 0; k++) {
      cut--;
      while (cut > 0 && (load<u8>(orth + cut) & 0xc0) === 0x80) cut--;
    }
    const suffixId = stringId(orth + cut, orthLen - cut);
    const shapeId = stringId(<usize>load<i32>(job, JOB_SHAPE_AT * 4), load<i32>(job, JOB_SHAPE_LEN * 4));
    const spacy = <u64>load<i32>(job, JOB_SPACY * 4);
    // The mixing layer's affine map: its bias, then each table's projected rows.
    for (let q: usize = 0; q < <usize>MIX_ROW_BYTES; q += 16) v128.store(acc + q, v128.load(MIX_B_AT + q));
    for (let t = 0; t < TABLES; t++) {
      const attr = header(SLOT_TABLE_ATTR + t);
      const id =
        attr === ATTR_NORM
          ? normId
          : attr === ATTR_PREFIX
            ? prefixId
            : attr === ATTR_SUFFIX
              ? suffixId
              : attr === ATTR_SHAPE
                ? shapeId
                : spacy;
      addProjected(t, id, acc);
    }
    const rec = recordsAt + <usize>(load<i32>(job, JOB_SLOT * 4) * RECORD_BYTES);
    // The mixing layer's maxout over its three pieces (piece-major: vectors q, 4 + q, 8 + q), then
    // the norm of the four maxima (as pieces of one: max(m, m) = m): the token's vector.
    const m0 = f32x4.max(f32x4.max(v128.load(acc), v128.load(acc, 64)), v128.load(acc, 128));
    const m1 = f32x4.max(f32x4.max(v128.load(acc, 16), v128.load(acc, 80)), v128.load(acc, 144));
    const m2 = f32x4.max(f32x4.max(v128.load(acc, 32), v128.load(acc, 96)), v128.load(acc, 160));
    const m3 = f32x4.max(f32x4.max(v128.load(acc, 48), v128.load(acc, 112)), v128.load(acc, 176));
    maxoutNorm(m0, m1, m2, m3, m0, m1, m2, m3, MIX_G_AT, MIX_BETA_AT, 0, rec);
    // Its share of the first encoder layer at window position d (W's rows d·WIDTH .. (d+1)·WIDTH),
    // summed from zero: `first` adds the bias.
    for (let d = 0; d < SPAN; d++) {
      const share = rec + <usize>(ROW_BYTES + d * ROWS * 4);
      for (let q: usize = 0; q < <usize>ROWS * 4; q += 16) v128.store(share + q, zero);
      matVec(<usize>LAYERS_AT + <usize>(d * WIDTH * ROWS * 4), rec, WIDTH, share);
    }
  }
}

/**
 * The first encoder layer for `rows` rows whose record slots are at `slots` (i32, with WINDOW
 * entries of −1 before and after; −1: a padding row), into `out` (WIDTH floats a row).
 */
export function first(slots: usize, rows: i32, out: usize): void {
  const recordsAt = <usize>header(SLOT_RECORDS_AT);
  const b = <usize>LAYERS_AT + <usize>(LAYER_IN * ROWS * 4);
  const g = b + <usize>(ROWS * 4);
  const beta = g + <usize>ROW_BYTES;
  // Every record line the rows will read, read first, one after another: the misses of a text's
  // rarer words overlap instead of stalling one row at a time (about 6% of this function's time
  // on the benchmark's real text).
  let touched: i32 = 0;
  for (let r = 0; r < rows; r++) {
    const s = load<i32>(slots + <usize>((r + WINDOW) << 2));
    if (s < 0) continue;
    const p = recordsAt + <usize>(s * RECORD_BYTES);
    for (let line: usize = 0; line < <usize>RECORD_BYTES; line += 64) touched += load<i32>(p + line);
  }
  store<i32>(<usize>(SLOT_TOUCHED << 2), touched);
  for (let r = 0; r < rows; r++) {
    let a0 = v128.load(b);
    let a1 = v128.load(b, 16);
    let a2 = v128.load(b, 32);
    let a3 = v128.load(b, 48);
    let a4 = v128.load(b, 64);
    let a5 = v128.load(b, 80);
    let a6 = v128.load(b, 96);
    let a7 = v128.load(b, 112);
    const at = slots + <usize>(r << 2);
    for (let d = 0; d < SPAN; d++) {
      const s = load<i32>(at + <usize>(d << 2));
      if (s < 0) continue;
      const p = recordsAt + <usize>(s * RECORD_BYTES + ROW_BYTES + d * ROWS * 4);
      a0 = f32x4.add(a0, v128.load(p));
      a1 = f32x4.add(a1, v128.load(p, 16));
      a2 = f32x4.add(a2, v128.load(p, 32));
      a3 = f32x4.add(a3, v128.load(p, 48));
      a4 = f32x4.add(a4, v128.load(p, 64));
      a5 = f32x4.add(a5, v128.load(p, 80));
      a6 = f32x4.add(a6, v128.load(p, 96));
      a7 = f32x4.add(a7, v128.load(p, 112));
    }
    const row = out + <usize>(r * ROW_BYTES);
    v128.store(row, f32x4.max(a0, a4));
    v128.store(row, f32x4.max(a1, a5), 16);
    v128.store(row, f32x4.max(a2, a6), 32);
    v128.store(row, f32x4.max(a3, a7), 48);
  }
  normRows(out, rows, g, beta, slots, recordsAt, 0);
}

/**
 * Encoder layer `layer` (1 or more) over `rows` rows at `input` (WINDOW zero rows before and after
 * them), into `out`: window products, maxout, norm, plus the row itself. `scratch`: ROWS floats.
 */
export function later(layer: i32, input: usize, rows: i32, out: usize, scratch: usize): void {
  const w = <usize>LAYERS_AT + <usize>(layer * LAYER_BYTES);
  const b = w + <usize>(LAYER_IN * ROWS * 4);
  const g = b + <usize>(ROWS * 4);
  const beta = g + <usize>ROW_BYTES;
  for (let r = 0; r < rows; r++) {
    const row = input + <usize>(r * ROW_BYTES);
    copyRows(b, scratch);
    matVec(w, row - <usize>(WINDOW * ROW_BYTES), LAYER_IN, scratch);
    maxoutAt(scratch, out + <usize>(r * ROW_BYTES));
  }
  normRows(out, rows, g, beta, 0, 0, input);
}

/** S − I of `n` rows at `input` into f32 at `out`. */
export function scores(input: usize, n: i32, out: usize): void {
  const w = <usize>SCORE_AT;
  const bias = load<f32>(w, ROW_BYTES);
  for (let t = 0; t < n; t++) {
    const row = input + <usize>(t * ROW_BYTES);
    let v = f32x4.mul(v128.load(row), v128.load(w));
    v = f32x4.add(v, f32x4.mul(v128.load(row, 16), v128.load(w, 16)));
    v = f32x4.add(v, f32x4.mul(v128.load(row, 32), v128.load(w, 32)));
    v = f32x4.add(v, f32x4.mul(v128.load(row, 48), v128.load(w, 48)));
    store<f32>(out + <usize>(t << 2), lanes(v) + bias);
  }
}

/**
 * Embedding table `t` projected through the mixing layer, into the table's place: row r of the
 * table (`rows` rows of WIDTH floats at `e`) times the layer's W (its rows t·WIDTH .. (t+1)·WIDTH,
 * laid out at MIX_W_AT), each of the MIX_ROWS sums in float64 with the inputs in order, stored as
 * float32: the same bits as the plain JavaScript that did it before (a float32 product is exact
 * in float64), two sums at a time.
 */
export function project(t: i32, e: usize, rows: i32): void {
  const out = <usize>header(SLOT_TABLE_AT + t);
  const w = <usize>MIX_W_AT + <usize>(t * WIDTH * MIX_ROWS * 4);
  for (let r = 0; r < rows; r++) {
    const x = e + <usize>(r * ROW_BYTES);
    const o = out + <usize>(r * MIX_ROW_BYTES);
    for (let row: usize = 0; row < <usize>MIX_ROWS; row += 2) {
      let sum = f64x2.splat(0);
      for (let i = 0; i < WIDTH; i++) {
        const wi = f64x2.promote_low_f32x4(v128.load64_zero(w + <usize>(i * MIX_ROWS * 4) + (row << 2)));
        sum = f64x2.add(sum, f64x2.mul(wi, f64x2.splat(<f64>load<f32>(x + <usize>(i << 2)))));
      }
      v128.store64_lane(o + (row << 2), f32x4.demote_f64x2_zero(sum), 0);
    }
  }
}

/** spaCy's StringStore id of `len` UTF-8 bytes at `p`, as two u32 at `out` (low first): for tests. */
export function stringIdAt(p: usize, len: i32, out: usize): void {
  store<u64>(out, stringId(p, len));
}
