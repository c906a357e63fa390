// The senter's per-token arithmetic in WebAssembly SIMD, assembled here byte by byte for the
// model's shapes (no build step, no toolchain; loop bounds and offsets are constants V8 sees).
// Three functions over one memory: the first encoder layer from per-entry projections, a later
// encoder layer (window products, maxout, layer norm, residual), and the S − I score. Maxout
// pieces are laid out piece-major (all outputs of piece 0, then piece 1, …) so that maxout is a
// lane-wise max of whole vectors.
import { setFlagsFromString } from "node:v8";
import type { SenterWeights } from "./folder.js";

const PAGE = 65536;

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

function section(id: number, body: number[]): number[] {
  return [id, ...leb(body.length), ...body];
}

function wasmName(s: string): number[] {
  const b = [...Buffer.from(s, "utf8")];
  return [...leb(b.length), ...b];
}

const I32 = 0x7f;
const F32 = 0x7d;
const V128 = 0x7b;

/** One function's code, with its params and locals declared as it is written. */
class Fn {
  readonly code: number[] = [];
  private readonly locals: number[] = [];

  constructor(readonly params: number) {}

  local(type: number): number {
    this.locals.push(type);
    return this.params + this.locals.length - 1;
  }

  op(...b: number[]): this {
    this.code.push(...b);
    return this;
  }

  get(i: number) {
    return this.op(0x20, ...leb(i));
  }
  set(i: number) {
    return this.op(0x21, ...leb(i));
  }
  tee(i: number) {
    return this.op(0x22, ...leb(i));
  }
  i32(n: number) {
    return this.op(0x41, ...sleb(n));
  }
  f32(v: number) {
    const b = new Uint8Array(new Float32Array([v]).buffer);
    return this.op(0x43, ...b);
  }
  add() {
    return this.op(0x6a);
  }
  mul() {
    return this.op(0x6c);
  }
  /** v128.load at address on the stack + offset. */
  vload(offset: number) {
    return this.op(0xfd, ...leb(0x00), 4, ...leb(offset));
  }
  vstore(offset: number) {
    return this.op(0xfd, ...leb(0x0b), 4, ...leb(offset));
  }
  fload(offset: number) {
    return this.op(0x2a, 2, ...leb(offset));
  }
  fstore(offset: number) {
    return this.op(0x38, 2, ...leb(offset));
  }
  iload(offset: number) {
    return this.op(0x28, 2, ...leb(offset));
  }
  simd(code: number) {
    return this.op(0xfd, ...leb(code));
  }
  splat() {
    return this.simd(0x13);
  }
  vadd() {
    return this.simd(0xe4);
  }
  vsub() {
    return this.simd(0xe5);
  }
  vmul() {
    return this.simd(0xe6);
  }
  vmax() {
    return this.simd(0xe9);
  }
  /** f32x4.relaxed_madd: a·b + c (fused where the CPU can). */
  vmadd() {
    return this.simd(0x105);
  }
  lane(k: number) {
    return this.simd(0x1f).op(k);
  }

  bytes(): number[] {
    const groups: number[] = [];
    let count = 0;
    for (let i = 0; i < this.locals.length; ) {
      let j = i;
      while (j < this.locals.length && this.locals[j] === this.locals[i]) j++;
      groups.push(...leb(j - i), this.locals[i]!);
      count++;
      i = j;
    }
    const body = [...leb(count), ...groups, ...this.code, 0x0b];
    return [...leb(body.length), ...body];
  }
}

/** Byte offsets of one maxout + layer norm layer's parameters in the module's memory. */
interface LayerAt {
  w: number;
  b: number;
  g: number;
  beta: number;
}

/**
 * maxout over `acc` (nP·width/4 vectors, piece-major) then layer norm, leaving the width/4 result
 * vectors in `m`; `tmp` is one f32 scratch local.
 */
function emitMaxoutNorm(
  f: Fn,
  acc: number[],
  m: number[],
  nP: number,
  width: number,
  gAt: number,
  betaAt: number,
  tmp: [number, number],
): void {
  const q4 = width / 4;
  for (let q = 0; q < q4; q++) {
    f.get(acc[q]!);
    for (let p = 1; p < nP; p++) f.get(acc[p * q4 + q]!).vmax();
    f.set(m[q]!);
  }
  const [mean, inv] = tmp;
  // mean = Σ / width
  f.get(m[0]!);
  for (let q = 1; q < q4; q++) f.get(m[q]!).vadd();
  const sumLanes = (v: number) => {
    f.get(v).lane(0).get(v).lane(1).op(0x92).get(v).lane(2).op(0x92).get(v).lane(3).op(0x92);
  };
  const vtmp = m[q4]!;
  f.set(vtmp);
  sumLanes(vtmp);
  f.f32(width).op(0x95).set(mean);
  // centred values, variance
  for (let q = 0; q < q4; q++) f.get(m[q]!).get(mean).splat().vsub().set(m[q]!);
  f.get(m[0]!).get(m[0]!).vmul();
  for (let q = 1; q < q4; q++) f.get(m[q]!).get(m[q]!).vmul().vadd();
  f.set(vtmp);
  sumLanes(vtmp);
  // inv = 1 / sqrt(var + eps)
  f.f32(width).op(0x95).f32(1e-8).op(0x92).op(0x91).set(inv);
  f.f32(1).get(inv).op(0x95).set(inv);
  for (let q = 0; q < q4; q++)
    f.get(m[q]!)
      .get(inv)
      .splat()
      .vmul()
      .i32(0)
      .vload(gAt + 16 * q)
      .vmul()
      .i32(0)
      .vload(betaAt + 16 * q)
      .vadd()
      .set(m[q]!);
}

/** The compiled senter arithmetic and its memory. */
export interface SenterKernel {
  memory: WebAssembly.Memory;
  /** Byte offset of the embedding scratch (the concatenated hash embeddings of one entry, f32). */
  readonly concatAt: number;
  /** Byte offset of slot 0's record: the entry's embedding (width f32), then its first-layer projections. */
  readonly recordsAt: number;
  /** Bytes of one record. */
  readonly recordBytes: number;
  /** Byte offset where a text's scratch may start (after the reserved records). */
  textAt(): number;
  /** Makes room for `slots` records (the text region moves up). */
  reserveSlots(slots: number): void;
  /** Grows the memory to `bytes` if smaller. */
  ensure(bytes: number): void;
  /** From the concatenation at {@link concatAt}: slot's embedding (mix, maxout, norm) and projections. */
  entry(slot: number): void;
  /** First layer: rows from slot ids at `slotPtr` (w entries of −1 before and after) into `out`. */
  first(slotPtr: number, rows: number, out: number): void;
  /** Later layer `l` (1-based in the encoder) over rows at `inPtr` (zero rows around) into `out`. */
  later(l: number, inPtr: number, rows: number, out: number): void;
  /** S − I of `n` rows at `inPtr` into f32 at `out`. */
  scores(inPtr: number, n: number, out: number): void;
}

/** Whether this runtime has WebAssembly SIMD (Node 20 does). */
function simdAvailable(): boolean {
  try {
    const f = new Fn(0);
    f.f32(0).splat().op(0x1a);
    return WebAssembly.validate(moduleBytes([f], 1, []));
  } catch {
    return false;
  }
}

/**
 * Whether fused multiply-add (WebAssembly relaxed SIMD) is there. Node 22 has it; Node 20 has it
 * behind V8's `--experimental-wasm-relaxed-simd`, which only lets the compiler accept those
 * instructions, so it is switched on here when missing.
 */
function relaxedSimd(): boolean {
  const probe = () => {
    const f = new Fn(0);
    f.f32(0).splat().f32(0).splat().f32(0).splat().vmadd().op(0x1a);
    return WebAssembly.validate(moduleBytes([f], 1, []));
  };
  if (probe()) return true;
  try {
    setFlagsFromString("--experimental-wasm-relaxed-simd");
    return probe();
  } catch {
    return false;
  }
}

/** A module of functions of one type ((i32, i32, i32) → (), or () → () for probes), memory exported. */
function moduleBytes(fns: Fn[], pages: number, exports: number[]): Uint8Array {
  const params = fns[0]!.params;
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [1, 0x60, params, ...Array.from({ length: params }, () => I32), 0]),
    ...section(3, [fns.length, ...fns.map(() => 0)]),
    ...section(5, [1, 0x00, ...leb(pages)]),
    ...(exports.length ? section(7, exports) : []),
    ...section(10, [fns.length, ...fns.flatMap((f) => f.bytes())]),
  ]);
}

/** Row index in thinc's maxout layout (output k, piece p) → piece-major. */
function pieceMajor(row: number, nP: number, nO: number): number {
  return (row % nP) * nO + Math.floor(row / nP);
}

/** Locals a matrix-vector product needs. */
interface MatVecLocals {
  j: number;
  xp: number;
  wp: number;
  xs: number;
}

/**
 * acc += Wᵀ·x for x of nIn floats starting at the address in local `xp` (advanced), W input-major
 * (nIn × R, piece-major) at constant byte offset `w`: four inputs a step, fused where possible.
 */
function emitMatVec(
  f: Fn,
  acc: number[],
  L: MatVecLocals,
  w: number,
  nIn: number,
  R: number,
  fused: boolean,
): void {
  f.i32(w).set(L.wp).i32(0).set(L.j);
  f.op(0x03, 0x40);
  for (let u = 0; u < 4; u++) {
    f.get(L.xp)
      .fload(4 * u)
      .splat()
      .set(L.xs);
    for (let q = 0; q < R / 4; q++) {
      if (fused)
        f.get(L.wp)
          .vload(u * R * 4 + 16 * q)
          .get(L.xs)
          .get(acc[q]!)
          .vmadd()
          .set(acc[q]!);
      else
        f.get(acc[q]!)
          .get(L.wp)
          .vload(u * R * 4 + 16 * q)
          .get(L.xs)
          .vmul()
          .vadd()
          .set(acc[q]!);
    }
  }
  f.get(L.xp).i32(16).add().set(L.xp);
  f.get(L.wp)
    .i32(4 * R * 4)
    .add()
    .set(L.wp);
  f.get(L.j).i32(4).add().tee(L.j).i32(nIn).op(0x49).op(0x0d, 0);
  f.op(0x0b);
}

/** Rows a later encoder layer computes per step (with FMA); see {@link emitMatVecRows}. */
const LATER_ROWS = 2;
/** Output vectors per pass of {@link emitMatVecRows}: LATER_ROWS·4 accumulators, 4 weights, the rows' inputs: within x64's 16 vector registers. */
const OUTPUT_GROUP = 4;

/** Locals of {@link emitMatVecRows}. */
interface MatVecRowsLocals {
  j: number;
  /** Input address of the first row (set by the caller; advanced). */
  xp: number;
  /** `xp` at the start, for each group's pass. */
  x0: number;
  wp: number;
  /** The weight vector shared by the rows. */
  wv: number;
  /** Each row's input, splatted. */
  xr: number[];
}

/**
 * acc_k += Wᵀ·x_k for consecutive rows at once (row k's input at `xp` + k·rowBytes), W as in
 * {@link emitMatVec}. Why: one row's sums wait on each accumulator's FMA latency (one row ran at
 * under half the FMA throughput); the rows' independent sums fill those waits, and each weight
 * loaded serves every row. Outputs go in groups of OUTPUT_GROUP vectors so that accumulators and
 * weights stay in registers. Each output still sums over the inputs in order, as emitMatVec does.
 */
function emitMatVecRows(
  f: Fn,
  accs: number[][],
  L: MatVecRowsLocals,
  w: number,
  nIn: number,
  R: number,
  rowBytes: number,
): void {
  f.get(L.xp).set(L.x0);
  for (let g0 = 0; g0 < R / 4; g0 += OUTPUT_GROUP) {
    f.get(L.x0).set(L.xp);
    f.i32(w + 16 * g0)
      .set(L.wp)
      .i32(0)
      .set(L.j);
    f.op(0x03, 0x40);
    for (let k = 0; k < accs.length; k++)
      f.get(L.xp)
        .fload(k * rowBytes)
        .splat()
        .set(L.xr[k]!);
    for (let q = g0; q < Math.min(R / 4, g0 + OUTPUT_GROUP); q++) {
      f.get(L.wp)
        .vload(16 * (q - g0))
        .set(L.wv);
      for (let k = 0; k < accs.length; k++)
        f.get(L.wv).get(L.xr[k]!).get(accs[k]![q]!).vmadd().set(accs[k]![q]!);
    }
    f.get(L.xp).i32(4).add().set(L.xp);
    f.get(L.wp)
      .i32(R * 4)
      .add()
      .set(L.wp);
    f.get(L.j).i32(1).add().tee(L.j).i32(nIn).op(0x49).op(0x0d, 0);
    f.op(0x0b);
  }
}

/**
 * The kernel for a senter's shapes, or undefined where SIMD is missing or a width is not a
 * multiple of 4 (the caller then computes in JavaScript).
 */
export function senterKernel(w: SenterWeights): SenterKernel | undefined {
  const width = w.width;
  const mix = w.mix;
  const layers = w.encoder;
  const shapes = [mix, ...layers];
  if (width % 4 !== 0 || shapes.some((l) => l.nI % 4 !== 0 || (l.nO * l.nP) % 4 !== 0) || !simdAvailable())
    return undefined;
  const fused = relaxedSimd();
  const win = w.window;
  const span = 2 * win + 1;
  // Static region: each layer's W (input-major, piece-major), b, G, beta; score weights; scratch.
  let at = 0;
  const alloc = (floats: number) => {
    const a = at;
    at += Math.ceil((floats * 4) / 16) * 16;
    return a;
  };
  const layerAt: LayerAt[] = shapes.map((l) => ({
    w: alloc(l.nI * l.nO * l.nP),
    b: alloc(l.nO * l.nP),
    g: alloc(l.nO),
    beta: alloc(l.nO),
  }));
  const scoreW = alloc(width);
  const scoreB = alloc(4);
  const concatAt = alloc(mix.nI);
  const first = layers[0]!;
  const R1 = first.nO * first.nP;
  const recordFloats = width + span * R1;
  const recordBytes = recordFloats * 4;
  const recordsAt = alloc(0);
  let capacity = 1 << 12;
  const pages = Math.ceil((recordsAt + capacity * recordBytes + (1 << 20)) / PAGE);

  // f0: entry(slot): mix layer from the concatenation, then projections of the embedding.
  const fe = new Fn(3);
  {
    const SLOT = 1;
    const rec = fe.local(I32);
    const L: MatVecLocals = { j: fe.local(I32), xp: fe.local(I32), wp: fe.local(I32), xs: fe.local(V128) };
    const R = mix.nO * mix.nP;
    const acc = Array.from({ length: Math.max(R, R1) / 4 }, () => fe.local(V128));
    const m = Array.from({ length: width / 4 + 1 }, () => fe.local(V128));
    const tmp: [number, number] = [fe.local(F32), fe.local(F32)];
    const M = layerAt[0]!;
    fe.get(SLOT).i32(recordBytes).mul().i32(recordsAt).add().set(rec);
    for (let q = 0; q < R / 4; q++)
      fe.i32(0)
        .vload(M.b + 16 * q)
        .set(acc[q]!);
    fe.i32(concatAt).set(L.xp);
    emitMatVec(fe, acc, L, M.w, mix.nI, R, fused);
    emitMaxoutNorm(fe, acc, m, mix.nP, width, M.g, M.beta, tmp);
    for (let q = 0; q < width / 4; q++)
      fe.get(rec)
        .get(m[q]!)
        .vstore(16 * q);
    const F = layerAt[1]!;
    for (let d = 0; d < span; d++) {
      const zero = m[width / 4]!;
      fe.f32(0).splat().set(zero);
      for (let q = 0; q < R1 / 4; q++) fe.get(zero).set(acc[q]!);
      fe.get(rec).set(L.xp);
      // Rows d·width .. (d+1)·width of the first layer's input-major W.
      emitMatVec(fe, acc, L, F.w + d * width * R1 * 4, width, R1, fused);
      for (let q = 0; q < R1 / 4; q++)
        fe.get(rec)
          .get(acc[q]!)
          .vstore(4 * width + d * R1 * 4 + 16 * q);
    }
  }

  // f1: first(slotPtr, rows, out)
  const f0 = new Fn(3);
  {
    const [SLOT, ROWS, OUT] = [0, 1, 2];
    const r = f0.local(I32);
    const s = f0.local(I32);
    const acc = Array.from({ length: R1 / 4 }, () => f0.local(V128));
    const m = Array.from({ length: width / 4 + 1 }, () => f0.local(V128));
    const tmp: [number, number] = [f0.local(F32), f0.local(F32)];
    const L = layerAt[1]!;
    f0.op(0x02, 0x40, 0x03, 0x40);
    f0.get(r).get(ROWS).op(0x4f).op(0x0d, 1);
    for (let q = 0; q < R1 / 4; q++)
      f0.i32(0)
        .vload(L.b + 16 * q)
        .set(acc[q]!);
    for (let d = 0; d < span; d++) {
      // s = slot[r + d − w]; if (s >= 0) acc += its projection at window position d
      f0.get(SLOT)
        .get(r)
        .i32(4)
        .mul()
        .add()
        .iload(4 * d)
        .tee(s);
      f0.i32(0).op(0x4e);
      f0.op(0x04, 0x40);
      for (let q = 0; q < R1 / 4; q++)
        f0.get(acc[q]!)
          .get(s)
          .i32(recordBytes)
          .mul()
          .vload(recordsAt + 4 * width + d * R1 * 4 + 16 * q)
          .vadd()
          .set(acc[q]!);
      f0.op(0x0b);
    }
    emitMaxoutNorm(f0, acc, m, first.nP, width, L.g, L.beta, tmp);
    // residual: the row's own embedding (pad rows have none)
    f0.get(SLOT)
      .get(r)
      .i32(4)
      .mul()
      .add()
      .iload(4 * win)
      .tee(s)
      .i32(0)
      .op(0x4e)
      .op(0x04, 0x40);
    for (let q = 0; q < width / 4; q++)
      f0.get(m[q]!)
        .get(s)
        .i32(recordBytes)
        .mul()
        .vload(recordsAt + 16 * q)
        .vadd()
        .set(m[q]!);
    f0.op(0x0b);
    for (let q = 0; q < width / 4; q++)
      f0.get(OUT)
        .get(r)
        .i32(width * 4)
        .mul()
        .add()
        .get(m[q]!)
        .vstore(16 * q);
    f0.get(r).i32(1).add().set(r).op(0x0c, 0).op(0x0b, 0x0b);
  }

  // later layers: (inPtr, rows, out), two rows a step where the fused path is there
  const laterFns = layers.slice(1).map((layer, i) => {
    const f = new Fn(3);
    const [IN, ROWS, OUT] = [0, 1, 2];
    const Lw = layerAt[i + 2]!;
    const R = layer.nO * layer.nP;
    const rowBytes = width * 4;
    const r = f.local(I32);
    const step = fused ? LATER_ROWS : 1;
    const L = {
      j: f.local(I32),
      x0: f.local(I32),
      xp: f.local(I32),
      wp: f.local(I32),
      xs: f.local(V128),
      wv: f.local(V128),
      xr: Array.from({ length: step }, () => f.local(V128)),
    };
    const accs = L.xr.map(() => Array.from({ length: R / 4 }, () => f.local(V128)));
    const ms = L.xr.map(() => Array.from({ length: width / 4 + 1 }, () => f.local(V128)));
    const tmp: [number, number] = [f.local(F32), f.local(F32)];
    // Rows r .. r+n−1: bias, window products, maxout, norm, residual, stored.
    const rowsAt = (n: number) => {
      for (let k = 0; k < n; k++)
        for (let q = 0; q < R / 4; q++)
          f.i32(0)
            .vload(Lw.b + 16 * q)
            .set(accs[k]![q]!);
      // The window's first row (a zero row before row 0 exists).
      f.get(IN)
        .get(r)
        .i32(rowBytes)
        .mul()
        .add()
        .i32(-win * rowBytes)
        .add()
        .set(L.xp);
      if (fused) emitMatVecRows(f, accs.slice(0, n), L, Lw.w, layer.nI, R, rowBytes);
      else emitMatVec(f, accs[0]!, L, Lw.w, layer.nI, R, fused);
      for (let k = 0; k < n; k++) {
        emitMaxoutNorm(f, accs[k]!, ms[k]!, layer.nP, width, Lw.g, Lw.beta, tmp);
        for (let q = 0; q < width / 4; q++)
          f.get(OUT)
            .get(r)
            .i32(rowBytes)
            .mul()
            .add()
            .get(ms[k]![q]!)
            .get(IN)
            .get(r)
            .i32(rowBytes)
            .mul()
            .add()
            .vload(k * rowBytes + 16 * q)
            .vadd()
            .vstore(k * rowBytes + 16 * q);
      }
      f.get(r).i32(n).add().set(r);
    };
    // while (r + step <= rows) rowsAt(step); then the last rows one at a time.
    f.op(0x02, 0x40, 0x03, 0x40);
    f.get(r).i32(step).add().get(ROWS).op(0x4a).op(0x0d, 1);
    rowsAt(step);
    f.op(0x0c, 0).op(0x0b, 0x0b);
    if (step > 1) {
      f.op(0x02, 0x40, 0x03, 0x40);
      f.get(r).get(ROWS).op(0x4f).op(0x0d, 1);
      rowsAt(1);
      f.op(0x0c, 0).op(0x0b, 0x0b);
    }
    return f;
  });

  // scores(inPtr, n, out)
  const fs = new Fn(3);
  {
    const [IN, N, OUT] = [0, 1, 2];
    const t = fs.local(I32);
    const v = fs.local(V128);
    fs.op(0x02, 0x40, 0x03, 0x40);
    fs.get(t).get(N).op(0x4f).op(0x0d, 1);
    fs.get(IN)
      .get(t)
      .i32(width * 4)
      .mul()
      .add()
      .vload(0)
      .i32(0)
      .vload(scoreW)
      .vmul();
    for (let q = 1; q < width / 4; q++)
      fs.get(IN)
        .get(t)
        .i32(width * 4)
        .mul()
        .add()
        .vload(16 * q)
        .i32(0)
        .vload(scoreW + 16 * q)
        .vmul()
        .vadd();
    fs.set(v);
    fs.get(OUT).get(t).i32(4).mul().add();
    fs.get(v).lane(0).get(v).lane(1).op(0x92).get(v).lane(2).op(0x92).get(v).lane(3).op(0x92);
    fs.i32(0).fload(scoreB).op(0x92).fstore(0);
    fs.get(t).i32(1).add().set(t).op(0x0c, 0).op(0x0b, 0x0b);
  }

  const fns = [fe, f0, ...laterFns, fs];
  const exports: number[] = [fns.length + 1];
  for (let i = 0; i < fns.length; i++) exports.push(...wasmName(`f${i}`), 0x00, i);
  exports.push(...wasmName("memory"), 0x02, 0);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes(fns, pages, exports)), {});
  const memory = instance.exports.memory as WebAssembly.Memory;
  const call = (i: number) => instance.exports[`f${i}`] as (a: number, b: number, c: number) => void;

  // Parameters into memory, input-major and piece-major.
  const f32 = new Float32Array(memory.buffer);
  shapes.forEach((layer, i) => {
    const L = layerAt[i]!;
    const R = layer.nO * layer.nP;
    for (let row = 0; row < R; row++) {
      const pm = pieceMajor(row, layer.nP, layer.nO);
      f32[L.b / 4 + pm] = layer.b[row]!;
      for (let j = 0; j < layer.nI; j++) f32[L.w / 4 + j * R + pm] = layer.W[row * layer.nI + j]!;
    }
    f32.set(layer.G, L.g / 4);
    f32.set(layer.beta, L.beta / 4);
  });
  for (let k = 0; k < width; k++) f32[scoreW / 4 + k] = w.outW[width + k]! - w.outW[k]!;
  f32[scoreB / 4] = w.outB[1]! - w.outB[0]!;

  const entryFn = call(0);
  const firstFn = call(1);
  const laterCalls = laterFns.map((_, i) => call(i + 2));
  const scoreFn = call(fns.length - 1);
  const ensure = (bytes: number) => {
    if (bytes > memory.buffer.byteLength) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
  };
  return {
    memory,
    concatAt,
    recordsAt,
    recordBytes,
    textAt: () => recordsAt + capacity * recordBytes,
    reserveSlots(slots) {
      if (slots <= capacity) return;
      capacity = Math.max(slots, capacity * 2);
      ensure(recordsAt + capacity * recordBytes + (1 << 20));
    },
    ensure,
    entry: (slot) => entryFn(0, slot, 0),
    first: (slotPtr, rows, out) => firstFn(slotPtr, rows, out),
    later: (l, inPtr, rows, out) => laterCalls[l - 1]!(inPtr, rows, out),
    scores: (inPtr, n, out) => scoreFn(inPtr, n, out),
  };
}
