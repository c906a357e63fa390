// The natural log correctly rounded, in double-double arithmetic (convkit's own code, after Dekker's
// exact product and Knuth's two-sum; no upstream code). Why: see below.
import { SMALLEST_NORMAL } from "./numeric.js";

// Natural log, correctly rounded (double-double arithmetic). The compiled CDFLIB calls glibc's
// log, which is correctly rounded in all but ~1 case in 2000; V8's Math.log is off by an ulp in
// ~6% of cases, and TOMS 708 multiplies logs by a up to ~700 before exp (x^a in the tails), which
// would turn that ulp into ~1e-13 relative differences from SciPy.

type DD = [number, number];
const SPLITTER = 134217729; // 2^27 + 1
/** a + b as an unevaluated sum (hi, lo), exact. */
function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}
/** a + b renormalised, for |a| >= |b|. */
function fastTwoSum(a: number, b: number): DD {
  const s = a + b;
  return [s, b - (s - a)];
}
/** a·b as an unevaluated sum, exact (Dekker's product). */
function twoProd(a: number, b: number): DD {
  const p = a * b;
  let c = SPLITTER * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLITTER * b;
  const bh = c - (c - b);
  const bl = b - bh;
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}
function ddAdd(a: DD, b: DD): DD {
  const [s, e] = twoSum(a[0], b[0]);
  return fastTwoSum(s, e + a[1] + b[1]);
}
function ddMul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return fastTwoSum(p, e + a[0] * b[1] + a[1] * b[0]);
}
const LN2_DD: DD = [Math.LN2, 2.3190468138462996e-17];
const THIRD_DD: DD = [0.3333333333333333, 1.850371707708594e-17];
const bitsF64 = new Float64Array(1);
const bitsU32 = new Uint32Array(bitsF64.buffer);

/**
 * ln x, correctly rounded: x = m·2^k with m in [√½, √2), ln m = 2 atanh(s), s = (m-1)/(m+1),
 * summed in double-double (the series' tail, below s⁴/5 relative, in double).
 */
export function ln(x: number): number {
  if (!(x > 0 && x < Number.POSITIVE_INFINITY)) return Math.log(x);
  let k = 0;
  if (x < SMALLEST_NORMAL) {
    x *= 18014398509481984; // 2^54
    k = -54;
  }
  bitsF64[0] = x;
  const hi = bitsU32[1]!; // little-endian: the sign/exponent word
  k += ((hi >>> 20) & 0x7ff) - 1023;
  bitsU32[1] = (hi & 0x800fffff) | 0x3ff00000;
  let m = bitsF64[0]!;
  if (m > Math.SQRT2) {
    m *= 0.5;
    k += 1;
  }
  const num = m - 1; // exact (Sterbenz)
  const den = twoSum(m, 1);
  const sh = num / den[0];
  const [p, pe] = twoProd(sh, den[0]);
  const s = fastTwoSum(sh, (num - p - pe - sh * den[1]) / den[0]);
  const s2 = ddMul(s, s);
  let q = 1 / 41;
  for (let n = 39; n >= 5; n -= 2) q = 1 / n + s2[0] * q;
  const t = ddMul(ddMul(s2, ddAdd(THIRD_DD, twoProd(s2[0], q))), s);
  let r = ddAdd([2 * s[0], 2 * s[1]], [2 * t[0], 2 * t[1]]);
  if (k !== 0) r = ddAdd(ddMul(LN2_DD, [k, 0]), r);
  return r[0] + r[1];
}
