// The Wilcoxon signed-rank test of paired samples, as scipy.stats.wilcoxon (SciPy 1.10.1) computes it.
import { valueAt } from "./checked.js";
import { ndtr } from "./distributions.js";
import type { Alternative } from "./paired.js";
import { differences } from "./paired.js";

/** What a zero difference does: dropped before ranking ("wilcox"), or ranked then left out of both sums ("pratt"). */
export type ZeroMethod = "wilcox" | "pratt";

export interface WilcoxonOptions {
  zeroMethod?: ZeroMethod;
  /** Continuity correction of the normal approximation (SciPy's `correction`). */
  correction?: boolean;
  alternative?: Alternative;
  /**
   * "exact": the null distribution of the rank sum, enumerated (SciPy's exact mode); "approx":
   * the normal approximation with the tie correction; "auto": exact when there are at most 50
   * differences, none zero and none tied, else approx. (SciPy's own auto also takes the exact
   * path with tied differences, where the enumeration does not hold; we do not.)
   */
  method?: "auto" | "exact" | "approx";
}

export interface WilcoxonResult {
  /** min(R+, R-) two-sided, else R+ (SciPy's statistic). */
  statistic: number;
  p: number;
  /** The normal approximation's z (NaN in exact mode). */
  z: number;
  method: "exact" | "approx";
}

/** Every-difference-zero: SciPy raises this for wilcox and pratt. */
export class AllZeroDifferences extends Error {
  constructor() {
    super("zero_method 'wilcox' and 'pratt' do not work if x - y is zero for all elements.");
  }
}

/** scipy.stats.rankdata(v) (average ranks of ties), with the sizes of the tied groups. */
function averageRanks(v: Float64Array): { ranks: Float64Array; tieSizes: number[] } {
  const sorted = Array.from(v, (x, i): [number, number] => [x, i]).sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const ranks = new Float64Array(v.length);
  const tieSizes: number[] = [];
  // Runs of equal values in sorted order: ranks start+1 .. start+run.length share their mean, as
  // rankdata's method="average".
  let start = 0;
  let run: number[] = [];
  let runValue = Number.NaN;
  const close = () => {
    const r = 0.5 * (start + 1 + (start + run.length));
    for (const i of run) ranks[i] = r;
    if (run.length > 1) tieSizes.push(run.length);
    start += run.length;
    run = [];
  };
  for (const [x, i] of sorted) {
    if (run.length > 0 && x !== runValue) close();
    run.push(i);
    runValue = x;
  }
  if (run.length > 0) close();
  return { ranks, tieSizes };
}

/** How many of the 2^n sign patterns of ranks 1..n give each rank sum 0..n(n+1)/2 (exact in doubles up to n = 50). */
function rankSumCounts(n: number): Float64Array {
  let c = new Float64Array([1]);
  for (let k = 1; k <= n; k++) {
    const next = new Float64Array((k * (k + 1)) / 2 + 1);
    next.set(c);
    for (let i = 0; i < c.length; i++) next[i + k]! += c[i]!;
    c = next;
  }
  return c;
}

/** Σ counts[from..to] / 2^n: exact (dyadic sums below 2^53), as SciPy's halved pmf sums. */
function tail(counts: Float64Array, from: number, to: number, n: number): number {
  let s = 0;
  for (const c of counts.subarray(Math.max(0, from), Math.max(0, Math.min(to, counts.length - 1) + 1)))
    s += c;
  return s / 2 ** n;
}

/** The Wilcoxon signed-rank test of A against B (differences a - b). */
export function wilcoxon(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  o: WilcoxonOptions = {},
): WilcoxonResult {
  return wilcoxonOfDifferences(differences(a, b), o);
}

/** The Wilcoxon signed-rank test of paired differences `d`. */
export function wilcoxonOfDifferences(dAll: Float64Array, o: WilcoxonOptions = {}): WilcoxonResult {
  const zeroMethod = o.zeroMethod ?? "wilcox";
  const alternative = o.alternative ?? "two-sided";
  if (dAll.length === 0) return { statistic: Number.NaN, p: Number.NaN, z: Number.NaN, method: "approx" };
  let nZero = 0;
  for (const x of dAll) if (x === 0) nZero++;
  let method = o.method ?? "auto";
  if (method === "auto") {
    const abs = new Set<number>();
    for (const x of dAll) abs.add(Math.abs(x));
    method = dAll.length <= 50 && nZero === 0 && abs.size === dAll.length ? "exact" : "approx";
  }
  // SciPy: zeros make an exact request approximate.
  if (nZero > 0 && method === "exact") method = "approx";
  let d = dAll;
  if (method === "approx") {
    if (nZero === dAll.length) throw new AllZeroDifferences();
    if (zeroMethod === "wilcox") d = dAll.filter((x) => x !== 0);
  }
  const count = d.length;
  const abs = d.map(Math.abs);
  const { ranks } = averageRanks(abs);
  let rPlus = 0;
  let rMinus = 0;
  for (const [i, x] of d.entries()) {
    if (x > 0) rPlus += valueAt(ranks, i);
    else if (x < 0) rMinus += valueAt(ranks, i);
  }
  const statistic = alternative === "two-sided" ? Math.min(rPlus, rMinus) : rPlus;
  if (method === "approx") {
    let mn = count * (count + 1) * 0.25;
    let se = count * (count + 1) * (2 * count + 1);
    let ranked = ranks;
    if (zeroMethod === "pratt") {
      ranked = ranks.filter((_, i) => d[i] !== 0);
      mn -= nZero * (nZero + 1) * 0.25;
      se -= nZero * (nZero + 1) * (2 * nZero + 1);
    }
    // Tie correction over the ranks of the nonzero differences (find_repeats).
    const { tieSizes } = averageRanks(ranked);
    let ties = 0;
    for (const t of tieSizes) ties += t * (t * t - 1);
    se -= 0.5 * ties;
    se = Math.sqrt(se / 24);
    let cc = 0;
    if (o.correction) {
      if (alternative === "two-sided") cc = 0.5 * Math.sign(statistic - mn);
      else cc = alternative === "less" ? -0.5 : 0.5;
    }
    const z = (statistic - mn - cc) / se;
    const p =
      alternative === "two-sided" ? 2 * ndtr(-Math.abs(z)) : alternative === "greater" ? ndtr(-z) : ndtr(z);
    return { statistic, p, z, method };
  }
  const counts = rankSumCounts(count);
  const r = Math.trunc(rPlus);
  let p: number;
  if (alternative === "two-sided") {
    if (r === Math.floor((counts.length - 1) / 2)) p = 1;
    else p = 2 * Math.min(tail(counts, r, counts.length - 1, count), tail(counts, 0, r, count));
  } else if (alternative === "greater") p = tail(counts, r, counts.length - 1, count);
  else p = tail(counts, 0, r, count);
  return { statistic, p: Math.min(1, Math.max(0, p)), z: Number.NaN, method };
}
