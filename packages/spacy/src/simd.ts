// The senter's per-token arithmetic in WebAssembly SIMD, assembled here byte by byte for the
// model's shapes (no build step, no toolchain; loop bounds and offsets are constants V8 sees).
// Three functions over one memory: the first encoder layer from per-entry projections, a later
// encoder layer (window products, maxout, layer norm, residual), and the S − I score. Maxout
// pieces are laid out piece-major (all outputs of piece 0, then piece 1, …) so that maxout is a
// lane-wise max of whole vectors.
import { setFlagsFromString } from "node:v8";
import type { MaxoutNorm, SenterWeights } from "./folder.js";

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
  /** Byte offsets: slot caches (embeddings, projections) and the per-text region. */
  readonly embedAt: number;
  readonly projAt: number;
  readonly textAt: number;
  /** Slots the caches hold. */
  readonly capacity: number;
  readonly projFloats: number;
  /** First layer: rows from slot ids at `slotPtr` (w entries of −1 before and after) into `out`. */
  first(slotPtr: number, rows: number, out: number): void;
  /** Later layer `l` (1-based in the encoder) over rows at `inPtr` (zero rows around) into `out`. */
  later(l: number, inPtr: number, rows: number, out: number): void;
  /** S − I of `n` rows at `inPtr` into f32 at `out`. */
  scores(inPtr: number, n: number, out: number): void;
  /** Writes a slot's projections, laid out piece-major, from thinc's layout. */
  piecesMajor(
    layer: MaxoutNorm,
    src: Float32Array | Float64Array,
    from: number,
    dst: Float32Array,
    at: number,
  ): void;
}

/** Whether this runtime has WebAssembly SIMD (Node 20 does). */
function simdAvailable(): boolean {
  try {
    const f = new Fn(0);
    f.f32(0).splat().op(0x1a);
    const module = [
      0x00,
      0x61,
      0x73,
      0x6d,
      0x01,
      0x00,
      0x00,
      0x00,
      ...section(1, [1, 0x60, 0, 0]),
      ...section(3, [1, 0]),
      ...section(10, [1, ...f.bytes()]),
    ];
    return WebAssembly.validate(new Uint8Array(module));
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
    return WebAssembly.validate(
      new Uint8Array([
        0x00,
        0x61,
        0x73,
        0x6d,
        0x01,
        0x00,
        0x00,
        0x00,
        ...section(1, [1, 0x60, 0, 0]),
        ...section(3, [1, 0]),
        ...section(10, [1, ...f.bytes()]),
      ]),
    );
  };
  if (probe()) return true;
  try {
    setFlagsFromString("--experimental-wasm-relaxed-simd");
    return probe();
  } catch {
    return false;
  }
}

/** Row index in thinc's maxout layout (output k, piece p) → piece-major. */
function pieceMajor(row: number, nP: number, nO: number): number {
  return (row % nP) * nO + Math.floor(row / nP);
}

/**
 * The kernel for a senter's shapes, or undefined where SIMD is missing or the width is not a
 * multiple of 4 (the caller then computes in JavaScript). `capacity` slots are reserved.
 */
export function senterKernel(w: SenterWeights, capacity: number): SenterKernel | undefined {
  const fused = relaxedSimd();
  const width = w.width;
  // Widths in whole vectors (window inputs, 4 per step, follow: nI = (2w+1)·width).
  if (width % 4 !== 0 || !simdAvailable()) return undefined;
  const win = w.window;
  const span = 2 * win + 1;
  const layers = w.encoder;
  // Static region: per layer W (later layers), b, G, beta; then the score weights.
  let at = 0;
  const alloc = (floats: number) => {
    const a = at;
    at += Math.ceil((floats * 4) / 16) * 16;
    return a;
  };
  const layerAt: LayerAt[] = layers.map((l, i) => ({
    w: i === 0 ? -1 : alloc(l.nI * l.nO * l.nP),
    b: alloc(l.nO * l.nP),
    g: alloc(l.nO),
    beta: alloc(l.nO),
  }));
  const scoreW = alloc(width);
  const scoreB = alloc(4);
  const first = layers[0]!;
  const R1 = first.nO * first.nP;
  const embedAt = alloc(0);
  at += capacity * width * 4;
  const projAt = alloc(0);
  const projFloats = span * R1;
  at += capacity * projFloats * 4;
  const textAt = alloc(0);
  const pages = Math.ceil((textAt + 1024 * 1024) / PAGE);

  // func 0: first(slotPtr, rows, out)
  const f0 = new Fn(3);
  {
    const [SLOT, ROWS, OUT] = [0, 1, 2];
    const r = f0.local(I32);
    const s = f0.local(I32);
    const acc = Array.from({ length: R1 / 4 }, () => f0.local(V128));
    const m = Array.from({ length: width / 4 + 1 }, () => f0.local(V128));
    const tmp: [number, number] = [f0.local(F32), f0.local(F32)];
    const L = layerAt[0]!;
    f0.op(0x02, 0x40, 0x03, 0x40);
    f0.get(r).get(ROWS).op(0x4f).op(0x0d, 1);
    for (let q = 0; q < R1 / 4; q++)
      f0.i32(0)
        .vload(L.b + 16 * q)
        .set(acc[q]!);
    for (let d = 0; d < span; d++) {
      // s = slot[r + d - w]; if (s >= 0) acc += proj[s][d]
      f0.get(SLOT)
        .get(r)
        .i32(4)
        .mul()
        .add()
        .iload(4 * (d - win) + 4 * win)
        .tee(s);
      f0.i32(0).op(0x4e); // i32.ge_s
      f0.op(0x04, 0x40); // if
      for (let q = 0; q < R1 / 4; q++)
        f0.get(acc[q]!)
          .get(s)
          .i32(projFloats * 4)
          .mul()
          .vload(projAt + d * R1 * 4 + 16 * q)
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
        .i32(width * 4)
        .mul()
        .vload(embedAt + 16 * q)
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

  // func 1..: later layers, one function each: (inPtr, rows, out)
  const laterFns = layers.slice(1).map((layer, i) => {
    const f = new Fn(3);
    const [IN, ROWS, OUT] = [0, 1, 2];
    const L = layerAt[i + 1]!;
    const R = layer.nO * layer.nP;
    const r = f.local(I32);
    const j = f.local(I32);
    const xp = f.local(I32);
    const wp = f.local(I32);
    const xs = f.local(V128);
    const acc = Array.from({ length: R / 4 }, () => f.local(V128));
    const m = Array.from({ length: width / 4 + 1 }, () => f.local(V128));
    const tmp: [number, number] = [f.local(F32), f.local(F32)];
    f.op(0x02, 0x40, 0x03, 0x40);
    f.get(r).get(ROWS).op(0x4f).op(0x0d, 1);
    for (let q = 0; q < R / 4; q++)
      f.i32(0)
        .vload(L.b + 16 * q)
        .set(acc[q]!);
    // xp = in + (r − w)·width·4: the window's first row (a zero row before row 0 exists); wp = W.
    f.get(IN)
      .get(r)
      .i32(width * 4)
      .mul()
      .add()
      .i32(-win * width * 4)
      .add()
      .set(xp);
    f.i32(L.w).set(wp).i32(0).set(j);
    // Four inputs per iteration.
    f.op(0x03, 0x40);
    for (let u = 0; u < 4; u++) {
      f.get(xp)
        .fload(4 * u)
        .splat()
        .set(xs);
      for (let q = 0; q < R / 4; q++) {
        if (fused)
          f.get(wp)
            .vload(u * R * 4 + 16 * q)
            .get(xs)
            .get(acc[q]!)
            .vmadd()
            .set(acc[q]!);
        else
          f.get(acc[q]!)
            .get(wp)
            .vload(u * R * 4 + 16 * q)
            .get(xs)
            .vmul()
            .vadd()
            .set(acc[q]!);
      }
    }
    f.get(xp).i32(16).add().set(xp);
    f.get(wp)
      .i32(4 * R * 4)
      .add()
      .set(wp);
    f.get(j).i32(4).add().tee(j).i32(layer.nI).op(0x49).op(0x0d, 0);
    f.op(0x0b);
    emitMaxoutNorm(f, acc, m, layer.nP, width, L.g, L.beta, tmp);
    for (let q = 0; q < width / 4; q++)
      f.get(OUT)
        .get(r)
        .i32(width * 4)
        .mul()
        .add()
        .get(m[q]!)
        .get(IN)
        .get(r)
        .i32(width * 4)
        .mul()
        .add()
        .vload(16 * q)
        .vadd()
        .vstore(16 * q);
    f.get(r).i32(1).add().set(r).op(0x0c, 0).op(0x0b, 0x0b);
    return f;
  });

  // last func: scores(inPtr, n, out)
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

  const fns = [f0, ...laterFns, fs];
  const exports: number[] = [];
  for (let i = 0; i < fns.length; i++) exports.push(...wasmName(`f${i}`), 0x00, i);
  exports.push(...wasmName("memory"), 0x02, 0);
  const bytes = new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [1, 0x60, 3, I32, I32, I32, 0]),
    ...section(3, [fns.length, ...fns.map(() => 0)]),
    ...section(5, [1, 0x00, ...leb(pages)]),
    ...section(7, [fns.length + 1, ...exports]),
    ...section(10, [fns.length, ...fns.flatMap((f) => f.bytes())]),
  ]);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
  const memory = instance.exports.memory as WebAssembly.Memory;
  const call = (i: number) => instance.exports[`f${i}`] as (a: number, b: number, c: number) => void;

  // Parameters into memory, piece-major.
  const f32 = new Float32Array(memory.buffer);
  layers.forEach((layer, i) => {
    const L = layerAt[i]!;
    const R = layer.nO * layer.nP;
    for (let row = 0; row < R; row++) {
      const pm = pieceMajor(row, layer.nP, layer.nO);
      f32[L.b / 4 + pm] = layer.b[row]!;
      if (i > 0)
        for (let jj = 0; jj < layer.nI; jj++) f32[L.w / 4 + jj * R + pm] = layer.W[row * layer.nI + jj]!;
    }
    f32.set(layer.G, L.g / 4);
    f32.set(layer.beta, L.beta / 4);
  });
  for (let k = 0; k < width; k++) f32[scoreW / 4 + k] = w.outW[width + k]! - w.outW[k]!;
  f32[scoreB / 4] = w.outB[1]! - w.outB[0]!;

  const firstFn = call(0);
  const laterCalls = laterFns.map((_, i) => call(i + 1));
  const scoreFn = call(fns.length - 1);
  return {
    memory,
    embedAt,
    projAt,
    textAt,
    capacity,
    projFloats,
    first: (slotPtr, rows, out) => firstFn(slotPtr, rows, out),
    later: (l, inPtr, rows, out) => laterCalls[l - 1]!(inPtr, rows, out),
    scores: (inPtr, n, out) => scoreFn(inPtr, n, out),
    piecesMajor(layer, src, from, dst, dAt) {
      const R = layer.nO * layer.nP;
      for (let row = 0; row < R; row++) dst[dAt + pieceMajor(row, layer.nP, layer.nO)] = src[from + row]!;
    },
  };
}
