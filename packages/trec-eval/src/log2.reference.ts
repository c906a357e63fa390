// log2Int's reference (log2.ts): log2 of an integer as glibc's log2 returns it, computed exactly
// (a BigInt series, correctly rounded, and glibc's value where it is one ulp off). log2Int runs
// it past its table's range.
import { ratioToDouble } from "@convkit/pycompat";

const SCALE = 256n;
const ONE = 1n << SCALE;

/** 2 * atanh(z) in fixed point (z = num/den, |z| <= 1/3): ln((1+z)/(1-z)). */
function lnRatio(num: bigint, den: bigint): bigint {
  const z = (num << SCALE) / den;
  const z2 = (z * z) >> SCALE;
  let term = z;
  let sum = 0n;
  for (let k = 1n; term !== 0n; k += 2n) {
    sum += term / k;
    term = (term * z2) >> SCALE;
  }
  return 2n * sum;
}

const LN2 = lnRatio(1n, 3n);

/**
 * Integers where glibc's log2 (x86-64, the FMA variant every current machine runs) is one ulp off
 * the correctly rounded value; checked against glibc for every n up to 100,001.
 */
const GLIBC_OFF_BY_ONE = new Map<number, number>([
  [1621, 10.662668375517542],
  [3242, 11.662668375517542],
  [6484, 12.662668375517542],
  [12968, 13.662668375517542],
  [25936, 14.662668375517542],
  [51872, 15.662668375517542],
  [57803, 15.818856750697654],
]);

const cache: number[] = [];

/** log2(n) for an integer n >= 1: the correctly rounded value (a BigInt series), glibc's where it is one ulp off. */
export function log2IntReference(n: number): number {
  const hit = cache[n];
  if (hit !== undefined) return hit;
  const glibc = GLIBC_OFF_BY_ONE.get(n);
  let v: number;
  if (glibc !== undefined) v = glibc;
  else {
    // n = 2^k * m with m in [1, 2): log2 n = k + ln(m)/ln 2, m = n/2^k, ln m = 2 atanh((n - 2^k)/(n + 2^k)).
    const big = BigInt(n);
    const k = big.toString(2).length - 1;
    const p = 1n << BigInt(k);
    const frac = (lnRatio(big - p, big + p) << SCALE) / LN2;
    v = ratioToDouble((BigInt(k) << SCALE) + frac, ONE);
  }
  if (n < 1 << 20) cache[n] = v;
  return v;
}
