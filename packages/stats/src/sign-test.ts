// The sign test: scipy.stats.binomtest(wins, wins + losses, 0.5) (SciPy 1.10.1), ties left out, its binomial sums exact.
import { ratioToDouble } from "@convkit/pycompat";
import { valueAt } from "./checked.js";
import type { Alternative } from "./paired.js";

/** C(n, 0..n) as BigInts. */
function binomialRow(n: number): bigint[] {
  const row: bigint[] = [1n];
  let c = 1n;
  for (let k = 1; k <= n; k++) {
    c = (c * BigInt(n - k + 1)) / BigInt(k);
    row.push(c);
  }
  return row;
}

/**
 * P(X <= k), P(X >= k) and P(X = k) for X ~ Binomial(n, 1/2), each rounded once from the exact
 * rational (SciPy's Boost-computed values agree to an ulp or two).
 */
class HalfBinomial {
  private readonly row: bigint[];
  private readonly den: bigint;
  constructor(readonly n: number) {
    this.row = binomialRow(n);
    this.den = 1n << BigInt(n);
  }
  pmf(k: number): number {
    return k < 0 || k > this.n ? 0 : ratioToDouble(valueAt(this.row, k), this.den);
  }
  cdf(k: number): number {
    let s = 0n;
    for (const c of this.row.slice(0, Math.max(0, Math.min(k, this.n) + 1))) s += c;
    return ratioToDouble(s, this.den);
  }
  /** P(X > k). */
  sf(k: number): number {
    let s = 0n;
    for (const c of this.row.slice(Math.max(0, k + 1))) s += c;
    return ratioToDouble(s, this.den);
  }
}

/** SciPy's `_binary_search_for_binom_tst`: the i in [lo, hi] with a(i) <= d < a(i + 1). */
function binarySearch(a: (x: number) => number, d: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const v = a(mid);
    if (v < d) lo = mid + 1;
    else if (v > d) hi = mid - 1;
    else return mid;
  }
  return a(lo) <= d ? lo : lo - 1;
}

/**
 * `scipy.stats.binomtest(k, n, 0.5, alternative).pvalue`. Two-sided, SciPy sums the outcomes no
 * likelier than k (with its 1e-7 relative slack) on both sides; n = 0 is NaN here (SciPy refuses it).
 */
export function binomTestHalf(k: number, n: number, alternative: Alternative = "two-sided"): number {
  if (n === 0) return Number.NaN;
  const b = new HalfBinomial(n);
  if (alternative === "less") return b.cdf(k);
  if (alternative === "greater") return b.sf(k - 1);
  const p = 0.5;
  const d = b.pmf(k);
  const rerr = 1 + 1e-7;
  let pval: number;
  if (k === p * n) pval = 1;
  else if (k < p * n) {
    const ix = binarySearch((x) => -b.pmf(x), -d * rerr, Math.ceil(p * n), n);
    const y = n - ix + (d * rerr === b.pmf(ix) ? 1 : 0);
    pval = b.cdf(k) + b.sf(n - y);
  } else {
    const ix = binarySearch((x) => b.pmf(x), d * rerr, 0, Math.floor(p * n));
    const y = ix + 1;
    pval = b.cdf(y - 1) + b.sf(k - 1);
  }
  return Math.min(1, pval);
}

/** The sign test of A against B: wins (a > b) among the topics that differ; `greater` asks whether A wins more. */
export function signTest(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  alternative: Alternative = "two-sided",
): number {
  let wins = 0;
  let losses = 0;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [valueAt(a, i), valueAt(b, i)];
    if (x > y) wins++;
    else if (x < y) losses++;
  }
  return binomTestHalf(wins, wins + losses, alternative);
}
