// AssemblyScript: thinc's Maxout + LayerNorm as the senter kernel (senter.ts) runs it, one row at a
// time (maxoutNorm) or four at a time (normRows). Both do each row's operations in the same order,
// so they give the same bits; f32 throughout, IEEE operations only.
import { RECORD_BYTES, WIDTH, WINDOW } from "./shared";

const ROW_BYTES: i32 = WIDTH * 4;

/** Sum of a vector's four lanes, in lane order. */
export function lanes(v: v128): f32 {
  return (
    f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3)
  );
}

/**
 * thinc's Maxout (two pieces, piece-major accumulators a0..a3 | a4..a7) then LayerNorm with gain at
 * `g` and bias at `beta`, stored at `out`; `res`, when not 0, is added afterwards (the residual).
 */
export function maxoutNorm(
  a0: v128,
  a1: v128,
  a2: v128,
  a3: v128,
  a4: v128,
  a5: v128,
  a6: v128,
  a7: v128,
  g: usize,
  beta: usize,
  res: usize,
  out: usize,
): void {
  let m0 = f32x4.max(a0, a4);
  let m1 = f32x4.max(a1, a5);
  let m2 = f32x4.max(a2, a6);
  let m3 = f32x4.max(a3, a7);
  const mean = lanes(f32x4.add(f32x4.add(f32x4.add(m0, m1), m2), m3)) / <f32>WIDTH;
  const mv = f32x4.splat(mean);
  m0 = f32x4.sub(m0, mv);
  m1 = f32x4.sub(m1, mv);
  m2 = f32x4.sub(m2, mv);
  m3 = f32x4.sub(m3, mv);
  let sq = f32x4.mul(m0, m0);
  sq = f32x4.add(sq, f32x4.mul(m1, m1));
  sq = f32x4.add(sq, f32x4.mul(m2, m2));
  sq = f32x4.add(sq, f32x4.mul(m3, m3));
  const inv = <f32>1 / Mathf.sqrt(lanes(sq) / <f32>WIDTH + <f32>1e-8);
  v128.store(out, m0);
  v128.store(out, m1, 16);
  v128.store(out, m2, 32);
  v128.store(out, m3, 48);
  scaleRow(out, inv, g, beta, res);
}

/** The maxout of the ROWS floats at `acc` (two pieces, piece-major), stored as WIDTH floats at `out`. */
export function maxoutAt(acc: usize, out: usize): void {
  v128.store(out, f32x4.max(v128.load(acc), v128.load(acc, 64)));
  v128.store(out, f32x4.max(v128.load(acc, 16), v128.load(acc, 80)), 16);
  v128.store(out, f32x4.max(v128.load(acc, 32), v128.load(acc, 96)), 32);
  v128.store(out, f32x4.max(v128.load(acc, 48), v128.load(acc, 112)), 48);
}

/** ((v0 + v1) + v2) + v3 of the row of WIDTH floats at `row`: what `lanes` then sums. */
function partialSum(row: usize): v128 {
  return f32x4.add(
    f32x4.add(f32x4.add(v128.load(row), v128.load(row, 16)), v128.load(row, 32)),
    v128.load(row, 48),
  );
}

/** ((v0 + v1) + v2) + v3 of the squares of the row at `row`. */
function partialSquares(row: usize): v128 {
  const v0 = v128.load(row);
  const v1 = v128.load(row, 16);
  const v2 = v128.load(row, 32);
  const v3 = v128.load(row, 48);
  let sq = f32x4.mul(v0, v0);
  sq = f32x4.add(sq, f32x4.mul(v1, v1));
  sq = f32x4.add(sq, f32x4.mul(v2, v2));
  return f32x4.add(sq, f32x4.mul(v3, v3));
}

/** `lanes` of four vectors at once: lane k is ((pk[0] + pk[1]) + pk[2]) + pk[3] (a 4×4 transpose, then the same adds in the same order). */
function lanes4(p0: v128, p1: v128, p2: v128, p3: v128): v128 {
  const t0 = v128.shuffle<f32>(p0, p1, 0, 4, 1, 5);
  const t1 = v128.shuffle<f32>(p2, p3, 0, 4, 1, 5);
  const t2 = v128.shuffle<f32>(p0, p1, 2, 6, 3, 7);
  const t3 = v128.shuffle<f32>(p2, p3, 2, 6, 3, 7);
  const l0 = v128.shuffle<f32>(t0, t1, 0, 1, 4, 5);
  const l1 = v128.shuffle<f32>(t0, t1, 2, 3, 6, 7);
  const l2 = v128.shuffle<f32>(t2, t3, 0, 1, 4, 5);
  const l3 = v128.shuffle<f32>(t2, t3, 2, 3, 6, 7);
  return f32x4.add(f32x4.add(f32x4.add(l0, l1), l2), l3);
}

/** Subtracts `mean` from each float of the row at `row`, in place. */
function centre(row: usize, mean: f32): void {
  const mv = f32x4.splat(mean);
  v128.store(row, f32x4.sub(v128.load(row), mv));
  v128.store(row, f32x4.sub(v128.load(row, 16), mv), 16);
  v128.store(row, f32x4.sub(v128.load(row, 32), mv), 32);
  v128.store(row, f32x4.sub(v128.load(row, 48), mv), 48);
}

/** The centred row at `row` scaled by `inv`, times the gain at `g`, plus `beta` and (when not 0) the residual at `res`, in place. */
function scaleRow(row: usize, inv: f32, g: usize, beta: usize, res: usize): void {
  const iv = f32x4.splat(inv);
  let m0 = f32x4.add(f32x4.mul(f32x4.mul(v128.load(row), iv), v128.load(g)), v128.load(beta));
  let m1 = f32x4.add(f32x4.mul(f32x4.mul(v128.load(row, 16), iv), v128.load(g, 16)), v128.load(beta, 16));
  let m2 = f32x4.add(f32x4.mul(f32x4.mul(v128.load(row, 32), iv), v128.load(g, 32)), v128.load(beta, 32));
  let m3 = f32x4.add(f32x4.mul(f32x4.mul(v128.load(row, 48), iv), v128.load(g, 48)), v128.load(beta, 48));
  if (res !== 0) {
    m0 = f32x4.add(m0, v128.load(res));
    m1 = f32x4.add(m1, v128.load(res, 16));
    m2 = f32x4.add(m2, v128.load(res, 32));
    m3 = f32x4.add(m3, v128.load(res, 48));
  }
  v128.store(row, m0);
  v128.store(row, m1, 16);
  v128.store(row, m2, 32);
  v128.store(row, m3, 48);
}

/**
 * The residual of row `r`: its record's vector (records from `recordsAt`) when `slots` is not 0
 * (the first layer; 0 for a padding row), else row `r` of `input`.
 */
function residual(r: i32, slots: usize, recordsAt: usize, input: usize): usize {
  if (slots === 0) return input + <usize>(r * ROW_BYTES);
  const own = load<i32>(slots + <usize>((r + WINDOW) << 2));
  return own >= 0 ? recordsAt + <usize>(own * RECORD_BYTES) : 0;
}

/**
 * The layer norm (gain at `g`, bias at `beta`) plus residual of `rows` maxed-out rows at `out`, in
 * place: four rows at a time, their horizontal sums taken together, so that the four chains of
 * dependent operations overlap. Each row gets maxoutNorm's operations in maxoutNorm's order, so
 * the same bits.
 */
export function normRows(
  out: usize,
  rows: i32,
  g: usize,
  beta: usize,
  slots: usize,
  recordsAt: usize,
  input: usize,
): void {
  const n = <f32>WIDTH;
  let r = 0;
  for (; r + 4 <= rows; r += 4) {
    const a = out + <usize>(r * ROW_BYTES);
    const b = a + <usize>ROW_BYTES;
    const c = b + <usize>ROW_BYTES;
    const d = c + <usize>ROW_BYTES;
    const mean = f32x4.div(
      lanes4(partialSum(a), partialSum(b), partialSum(c), partialSum(d)),
      f32x4.splat(n),
    );
    centre(a, f32x4.extract_lane(mean, 0));
    centre(b, f32x4.extract_lane(mean, 1));
    centre(c, f32x4.extract_lane(mean, 2));
    centre(d, f32x4.extract_lane(mean, 3));
    const variance = f32x4.add(
      f32x4.div(
        lanes4(partialSquares(a), partialSquares(b), partialSquares(c), partialSquares(d)),
        f32x4.splat(n),
      ),
      f32x4.splat(<f32>1e-8),
    );
    const inv = f32x4.div(f32x4.splat(<f32>1), f32x4.sqrt(variance));
    scaleRow(a, f32x4.extract_lane(inv, 0), g, beta, residual(r, slots, recordsAt, input));
    scaleRow(b, f32x4.extract_lane(inv, 1), g, beta, residual(r + 1, slots, recordsAt, input));
    scaleRow(c, f32x4.extract_lane(inv, 2), g, beta, residual(r + 2, slots, recordsAt, input));
    scaleRow(d, f32x4.extract_lane(inv, 3), g, beta, residual(r + 3, slots, recordsAt, input));
  }
  for (; r < rows; r++) {
    const row = out + <usize>(r * ROW_BYTES);
    const m0 = v128.load(row);
    const m1 = v128.load(row, 16);
    const m2 = v128.load(row, 32);
    const m3 = v128.load(row, 48);
    maxoutNorm(m0, m1, m2, m3, m0, m1, m2, m3, g, beta, residual(r, slots, recordsAt, input), row);
  }
}
