// The paired t-test and what papers print beside it (means, Cohen's d_z, the 95% interval of the mean difference), as SciPy 1.10 and numpy compute them.
import { numpyMean, numpyStd, numpySum } from "@convkit/pycompat";
import { valueAt } from "./checked.js";
import { stdtr, stdtrit } from "./distributions.js";

/** Which way the test looks: B ≠ A, A > B ("greater") or A < B ("less"), as SciPy names them. */
export type Alternative = "two-sided" | "greater" | "less";

/** `scipy.stats.ttest_rel(a, b, alternative)`: t and p. */
export interface TTest {
  t: number;
  p: number;
}

/** a - b, element by element (lengths must match). */
export function differences(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  if (a.length !== b.length)
    throw new RangeError(`paired samples of different lengths (${a.length}, ${b.length})`);
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = valueAt(a, i) - valueAt(b, i);
  return d;
}

/** The p-value of t with df degrees of freedom, as SciPy's `_ttest_finish` takes it from stdtr. */
export function tTestP(t: number, df: number, alternative: Alternative): number {
  if (alternative === "less") return stdtr(df, t);
  if (alternative === "greater") return stdtr(df, -t);
  return stdtr(df, -Math.abs(t)) * 2;
}

/**
 * `scipy.stats.ttest_rel(a, b, alternative=...)` (SciPy 1.10.1): t = mean(d) / sqrt(var(d) / n)
 * with SciPy's variance (the mean of squared deviations times n / (n - 1), not numpy's
 * var(ddof=1): the two differ in the last bits). One pair: t and p are NaN; all differences
 * equal and nonzero: t = ±inf, p = 0 (or 1); all zero: NaN.
 */
export function pairedTTest(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  alternative: Alternative = "two-sided",
): TTest {
  const d = differences(a, b);
  const n = d.length;
  if (n === 0) return { t: Number.NaN, p: Number.NaN };
  const dm = numpyMean(d);
  const sq = d.map((di) => {
    const x = di - dm;
    return x * x;
  });
  // np.divide(n, n - 1): inf for one pair, and 0 * inf = NaN as in SciPy.
  const v = (numpySum(sq) / n) * (n / (n - 1));
  const t = dm / Math.sqrt(v / n);
  return { t, p: tTestP(t, n - 1, alternative) };
}

/**
 * `scipy.stats.t.interval(confidence, df, loc, scale)`: loc + scale * stdtrit(df, q) at
 * q = (1 - confidence) / 2 and (1 + confidence) / 2, in SciPy's float order. SciPy's stdtrit
 * stops its root search at CDFLIB's tolerance, so these ends are SciPy's, not the exact quantiles.
 */
export function tInterval(confidence: number, df: number, loc: number, scale: number): [number, number] {
  // rv_continuous.ppf answers NaN unless scale > 0.
  if (!(scale > 0)) return [Number.NaN, Number.NaN];
  const q1 = (1.0 - confidence) / 2;
  const q2 = (1.0 + confidence) / 2;
  return [stdtrit(df, q1) * scale + loc, stdtrit(df, q2) * scale + loc];
}

/** What a comparison table prints for a pair of runs, per measure (A's values against B's, topic by topic). */
export interface PairSummary {
  n: number;
  meanA: number;
  meanB: number;
  /** mean(a - b), numpy's mean. */
  meanDiff: number;
  /** numpy's std(a - b, ddof=1). */
  sdDiff: number;
  /** Cohen's d_z: meanDiff / sdDiff; NaN for one pair or no spread. */
  cohenDz: number;
  /** The 95% interval of the mean difference (Student's t, n - 1 degrees of freedom). */
  ci95: [number, number];
  /** Topics where A is above, equal to, below B. */
  wins: number;
  ties: number;
  losses: number;
}

/** The {@link PairSummary} of A against B. */
export function summarizePair(a: ArrayLike<number>, b: ArrayLike<number>): PairSummary {
  const d = differences(a, b);
  const n = d.length;
  const meanDiff = numpyMean(d);
  const sdDiff = n > 1 ? numpyStd(d, 1) : Number.NaN;
  let wins = 0;
  let losses = 0;
  for (const x of d) {
    if (x > 0) wins++;
    else if (x < 0) losses++;
  }
  return {
    n,
    meanA: numpyMean(a),
    meanB: numpyMean(b),
    meanDiff,
    sdDiff,
    cohenDz: n > 1 && sdDiff > 0 ? meanDiff / sdDiff : Number.NaN,
    ci95: tInterval(0.95, n - 1, meanDiff, sdDiff / Math.sqrt(n)),
    wins,
    ties: n - wins - losses,
    losses,
  };
}
