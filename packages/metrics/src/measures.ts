// trec_eval's per-topic measures (m_P.c, m_recall.c, m_map.c, m_recip_rank.c, m_ndcg_cut.c, m_Rprec.c), step for step.
import type { JudgedRanking } from "./judged-ranking.js";
import { log2Int } from "./log2.js";

/** P@k: relevant documents in the top k over k (k fixed even when fewer were retrieved). */
export function precisionAt(r: JudgedRanking, k: number, level = 1): number {
  let rel = 0;
  const n = Math.min(k, r.grades.length);
  for (let i = 0; i < n; i++) if (r.grades[i]! >= level) rel++;
  return rel / k;
}

/** recall@k: relevant documents in the top k over all relevant documents (0 when there are none). */
export function recallAt(r: JudgedRanking, k: number, level = 1): number {
  if (r.numRel === 0) return 0;
  let rel = 0;
  const n = Math.min(k, r.grades.length);
  for (let i = 0; i < n; i++) if (r.grades[i]! >= level) rel++;
  return rel / r.numRel;
}

/** Average precision: sum of precision at each relevant retrieved document, over all relevant. */
export function averagePrecision(r: JudgedRanking, level = 1): number {
  if (r.numRel === 0) return 0;
  let rel = 0;
  let sum = 0;
  for (let i = 0; i < r.grades.length; i++) {
    if (r.grades[i]! >= level) {
      rel++;
      sum += rel / (i + 1);
    }
  }
  return sum / r.numRel;
}

/** Reciprocal rank of the first relevant document within the top `cutoff` (all when absent). */
export function reciprocalRank(r: JudgedRanking, level = 1, cutoff = Number.POSITIVE_INFINITY): number {
  const n = Math.min(cutoff, r.grades.length);
  for (let i = 0; i < n; i++) if (r.grades[i]! >= level) return 1 / (i + 1);
  return 0;
}

/** R-precision: precision at rank num_rel. */
export function rPrecision(r: JudgedRanking, level = 1): number {
  if (r.numRel === 0) return 0;
  let rel = 0;
  const n = Math.min(r.numRel, r.grades.length);
  for (let i = 0; i < n; i++) if (r.grades[i]! >= level) rel++;
  return rel / r.numRel;
}

/**
 * nDCG@k as trec_eval's ndcg_cut: gain = grade (only positive grades count), discount
 * log2(rank + 1), sums accumulated in rank order; the ideal ranking takes every judged document
 * with a positive grade, best first; an ideal DCG of 0 gives 0.
 */
export function ndcgAt(r: JudgedRanking, k: number): number {
  let dcg = 0;
  const n = Math.min(k, r.grades.length);
  for (let i = 0; i < n; i++) {
    const g = r.grades[i]!;
    if (g > 0) dcg += g / log2Int(i + 2);
  }
  let ideal = 0;
  let i = 0;
  for (let lvl = r.relLevels.length - 1; lvl > 0 && i < k; lvl--) {
    for (let c = 0; c < r.relLevels[lvl]! && i < k; c++, i++) ideal += lvl / log2Int(i + 2);
  }
  return ideal > 0 ? dcg / ideal : 0;
}

/**
 * {@link ndcgAt} at several cutoffs (ascending) in one pass: the DCG and the ideal DCG are the
 * same running sums, read off at each cutoff, so every value equals `ndcgAt(r, k)` bit for bit.
 */
export function ndcgAtCutoffs(r: JudgedRanking, cutoffs: readonly number[]): number[] {
  const out: number[] = [];
  const last = cutoffs[cutoffs.length - 1] ?? 0;
  let dcg = 0;
  let ideal = 0;
  let c = 0;
  // Ideal gains in order: the judged positive grades, best first.
  let lvl = r.relLevels.length - 1;
  let left = lvl > 0 ? r.relLevels[lvl]! : 0;
  for (let i = 0; i < last; i++) {
    if (i < r.grades.length) {
      const g = r.grades[i]!;
      if (g > 0) dcg += g / log2Int(i + 2);
    }
    while (lvl > 0 && left === 0) {
      lvl--;
      left = lvl > 0 ? r.relLevels[lvl]! : 0;
    }
    if (lvl > 0) {
      ideal += lvl / log2Int(i + 2);
      left--;
    }
    while (c < cutoffs.length && cutoffs[c] === i + 1) {
      out.push(ideal > 0 ? dcg / ideal : 0);
      c++;
    }
  }
  return out;
}
