// Multiple-testing corrections as statsmodels 0.13's multipletests computes them: adjusted p-values and rejections.
import { numpySum } from "@convkit/pycompat";
import { valueAt } from "./checked.js";

export const CORRECTIONS = ["none", "bonferroni", "holm", "sidak", "holm-sidak", "fdr_bh", "fdr_by"] as const;
export type Correction = (typeof CORRECTIONS)[number];

export interface Corrected {
  /** Adjusted p-values, in the input's order (capped at 1). */
  pAdjusted: number[];
  /** Rejected at level alpha, in the input's order. */
  reject: boolean[];
}

/** `1 - (1 - alpha) ** (1 / k)`, as numpy's power computes it. */
const sidakLevel = (alpha: number, k: number) => 1 - (1 - alpha) ** (1 / k);

/**
 * `statsmodels.stats.multitest.multipletests(p, alpha, method)` for one family of p-values, in
 * its float order (step-down methods on the sorted p-values, cumulative max or min, capped at
 * 1). Tied p-values come out the same whichever way a sort orders them. "none" leaves the
 * p-values as they are and rejects p <= alpha. NaN p-values are refused: leave them out of the
 * family (statsmodels would sort them last and reject them).
 */
export function multipleTests(p: readonly number[], method: Correction, alpha = 0.05): Corrected {
  for (const x of p) if (Number.isNaN(x)) throw new RangeError("a NaN p-value in a family to correct");
  const m = p.length;
  if (method === "none") return { pAdjusted: [...p], reject: p.map((x) => x <= alpha) };
  const sorted = p.map((x, i): [number, number] => [x, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const s = sorted.map(([x]) => x);
  let reject: boolean[];
  let adj: number[];
  /** Step-down: everything before the first p over its level is rejected. */
  const stepDown = (level: (i: number) => number) => {
    const first = s.findIndex((x, i) => x > level(i));
    return s.map((_, i) => first === -1 || i < first);
  };
  /** Running maximum (a NaN carries on, as numpy's maximum.accumulate). */
  const cumMax = (v: number[]) => {
    let prev: number | undefined;
    return v.map((x) => {
      const y = prev !== undefined && (prev > x || Number.isNaN(prev)) ? prev : x;
      prev = y;
      return y;
    });
  };
  switch (method) {
    case "bonferroni":
      reject = s.map((x) => x <= alpha / m);
      adj = s.map((x) => x * m);
      break;
    case "sidak":
      reject = s.map((x) => x <= sidakLevel(alpha, m));
      adj = s.map((x) => -Math.expm1(m * Math.log1p(-x)));
      break;
    case "holm-sidak":
      reject = stepDown((i) => sidakLevel(alpha, m - i));
      adj = cumMax(s.map((x, i) => -Math.expm1((m - i) * Math.log1p(-x))));
      break;
    case "holm":
      reject = stepDown((i) => alpha / (m - i));
      adj = cumMax(s.map((x, i) => x * (m - i)));
      break;
    case "fdr_bh":
    case "fdr_by": {
      // fdr_by divides the ecdf (i + 1) / m by the harmonic sum, numpy-summed.
      const cm = method === "fdr_by" ? numpySum(s.map((_, i) => 1 / (i + 1))) : 1;
      const factor = (i: number) => (method === "fdr_by" ? (i + 1) / m / cm : (i + 1) / m);
      reject = s.map((x, i) => x <= factor(i) * alpha);
      const last = reject.lastIndexOf(true);
      for (let i = 0; i < last; i++) reject[i] = true;
      // The running minimum from the end.
      let next: number | undefined;
      adj = s
        .map((x, i) => x / factor(i))
        .reverse()
        .map((x) => {
          const y = next !== undefined && next < x ? next : x;
          next = y;
          return y;
        })
        .reverse();
      break;
    }
  }
  const pAdjusted = new Array<number>(m);
  const rejected = new Array<boolean>(m);
  for (const [k, [, i]] of sorted.entries()) {
    pAdjusted[i] = Math.min(valueAt(adj, k), 1);
    rejected[i] = valueAt(reject, k);
  }
  return { pAdjusted, reject: rejected };
}
