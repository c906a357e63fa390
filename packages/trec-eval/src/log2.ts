// log2 of integers as glibc's log2 returns them (trec_eval's discount), not as V8's Math.log2 does.
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

/**
 * Up to FAST_MAX, the integers where V8's Math.log2 (its own fdlibm port, the same on every
 * platform) is not glibc's value: everywhere else there it is, so log2Int needs no BigInt series
 * (which cost a process ~0.1 s for the ranks of a 1,000-deep run). Checked in the quick suite
 * against log2IntExact for every n up to FAST_MAX (log2.test.ts).
 */
export const FAST_MAX = 100001;
const V8_NOT_GLIBC = new Map<number, number>([
  [1375, 10.425215903299383],
  [1621, 10.662668375517542],
  [2750, 11.425215903299383],
  [3242, 11.662668375517542],
  [3393, 11.728345714710978],
  [5500, 12.425215903299383],
  [5755, 12.490600213019592],
  [6131, 12.581906689308768],
  [6351, 12.632768054728745],
  [6484, 12.662668375517542],
  [6786, 12.728345714710978],
  [11000, 13.425215903299383],
  [11219, 13.453656467320046],
  [11443, 13.482177711187445],
  [11510, 13.490600213019592],
  [12043, 13.555907202377876],
  [12262, 13.581906689308768],
  [12702, 13.632768054728745],
  [12968, 13.662668375517542],
  [13572, 13.728345714710978],
  [13735, 13.74556928996322],
  [18817, 14.199749016642558],
  [21099, 14.364887002689064],
  [21703, 14.405606859360857],
  [22000, 14.425215903299383],
  [22438, 14.453656467320046],
  [22886, 14.482177711187445],
  [23020, 14.490600213019592],
  [24086, 14.555907202377876],
  [24524, 14.581906689308768],
  [25404, 14.632768054728745],
  [25936, 14.662668375517542],
  [27144, 14.728345714710978],
  [27470, 14.74556928996322],
  [37634, 15.199749016642558],
  [39493, 15.269309342706833],
  [42198, 15.364887002689064],
  [43406, 15.405606859360857],
  [44000, 15.425215903299383],
  [44876, 15.453656467320046],
  [45477, 15.472849466060266],
  [45772, 15.482177711187445],
  [46040, 15.490600213019592],
  [46581, 15.5074539911797],
  [48172, 15.555907202377876],
  [49048, 15.581906689308768],
  [50808, 15.632768054728745],
  [51651, 15.656508660509582],
  [51872, 15.662668375517542],
  [54288, 15.728345714710978],
  [54940, 15.74556928996322],
  [57803, 15.818856750697654],
  [83507, 16.34960951656134],
  [83743, 16.35368098150153],
  [86015, 16.392300650277978],
  [88424, 16.43215037791784],
  [88632, 16.435540047926768],
  [89516, 16.449857950838126],
  [90727, 16.469244334596894],
  [90768, 16.469896148670916],
  [92078, 16.490568876992032],
  [96143, 16.55289420089083],
]);

/** log2(n) for an integer n >= 1, bit for bit what trec_eval's C log2 gives on glibc. */
export function log2Int(n: number): number {
  if (n <= FAST_MAX) return V8_NOT_GLIBC.get(n) ?? Math.log2(n);
  return log2IntExact(n);
}

const cache: number[] = [];

/** {@link log2Int}'s plain reference: the correctly rounded value (a BigInt series), glibc's where it is one ulp off. */
export function log2IntExact(n: number): number {
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
