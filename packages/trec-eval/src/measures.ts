// trec_eval's per-topic measures (its m_*.c files: P, recall, map, gm_map, Rprec, bpref, infAP, iprec_at_recall, ndcg_cut, map_cut, …), step for step.
import { type JudgedRanking, NONPOOL, UNJUDGED } from "./judged-ranking.js";
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

/** trec_eval's floor for a topic's AP in gm_map (MIN_GEO_MEAN). */
const MIN_GEO_MEAN = 0.00001;

/** gm_map's per-topic value: log of AP, AP floored at MIN_GEO_MEAN (averaged as exp of the mean). */
export function logAveragePrecision(r: JudgedRanking, level = 1): number {
  return Math.log(Math.max(averagePrecision(r, level), MIN_GEO_MEAN));
}

/**
 * bpref: over the judged documents only (unjudged and unpooled ones skipped), each relevant one
 * scores 1 − min(nonrelevant above it, R) / min(judged nonrelevant, R); the sum over R.
 */
export function bpref(r: JudgedRanking, level = 1): number {
  let numNonrel = 0;
  for (let g = 0; g < level && g < r.relLevels.length; g++) numNonrel += r.relLevels[g]!;
  let nonrelSoFar = 0;
  let sum = 0;
  for (let i = 0; i < r.grades.length; i++) {
    const g = r.grades[i]!;
    if (g < 0) continue; // NONPOOL, UNJUDGED
    if (g < level) nonrelSoFar++;
    else if (nonrelSoFar > 0) sum += 1 - Math.min(nonrelSoFar, r.numRel) / Math.min(numNonrel, r.numRel);
    else sum += 1;
  }
  return r.numRel ? sum / r.numRel : sum;
}

/** C's lround for the non-negative products here: halves away from zero. */
function lround(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

/**
 * Interpolated precision at recall levels (fractions, ascending): at each level, the highest
 * precision at any rank whose recall reaches it, levels taken as lround(level × R) relevant
 * documents. What iprec_at_recall prints and 11pt_avg averages.
 */
export function interpolatedPrecision(r: JudgedRanking, levels: readonly number[], level = 1): number[] {
  const out = new Array<number>(levels.length).fill(0);
  const cutoffs = levels.map((p) => lround(p * r.numRel));
  const numRet = r.grades.length;
  let cut = levels.length - 1;
  while (cut >= 0 && cutoffs[cut]! > r.numRelRet) cut--;
  // Walked from the last rank up: Int_Prec(X) = max Prec(Y) over Y >= X. (0/0 as in C: NaN.)
  let intPrecis = r.numRelRet / numRet;
  let relSoFar = r.numRelRet;
  for (let i = numRet; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i;
    if (intPrecis < precis) intPrecis = precis;
    if (r.grades[i - 1]! >= level) {
      while (cut >= 0 && relSoFar === cutoffs[cut]) out[cut--] = intPrecis;
      relSoFar--;
    }
  }
  while (cut >= 0) out[cut--] = intPrecis;
  return out;
}

/** 11pt_avg: the mean of {@link interpolatedPrecision} over the levels (trec_eval sums in the same order). */
export function elevenPointAverage(r: JudgedRanking, levels: readonly number[], level = 1): number {
  const v = interpolatedPrecision(r, levels, level);
  let sum = 0;
  for (let k = v.length - 1; k >= 0; k--) sum += v[k]!;
  return sum / levels.length;
}

/**
 * Rprec_mult: precision at (long)(m × R + 0.9) documents for each multiple m (ascending);
 * past the end of the ranking, relevant retrieved over that many.
 */
export function precisionAtRMultiples(r: JudgedRanking, multiples: readonly number[], level = 1): number[] {
  const out = new Array<number>(multiples.length).fill(0);
  const cutoffs = multiples.map((m) => Math.trunc(m * r.numRel + 0.9));
  const numRet = r.grades.length;
  let cut = multiples.length - 1;
  while (cut >= 0 && cutoffs[cut]! > numRet) {
    out[cut] = r.numRelRet / cutoffs[cut]!;
    cut--;
  }
  let relSoFar = r.numRelRet;
  for (let i = numRet; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i;
    while (cut >= 0 && i === cutoffs[cut]) out[cut--] = precis;
    if (r.grades[i - 1]! >= level) relSoFar--;
  }
  return out;
}

/** success@k: 1 when a relevant document is in the top k. */
export function successAt(r: JudgedRanking, k: number, level = 1): number {
  const n = Math.min(k, r.grades.length);
  for (let i = 0; i < n; i++) if (r.grades[i]! >= level) return 1;
  return 0;
}

/** gm_bpref's per-topic value: log of bpref floored at MIN_GEO_MEAN (averaged as exp of the mean). */
export function logBpref(r: JudgedRanking, level = 1): number {
  return Math.log(Math.max(bpref(r, level), MIN_GEO_MEAN));
}

/** trec_eval's INFAP_EPSILON. */
const INFAP_EPSILON = 0.00001;

/**
 * infAP (Yilmaz and Aslam): AP estimated from judged documents; unpooled ones are skipped,
 * pooled but unjudged ones counted as they come, as trec_eval's m_infap.c.
 */
export function inferredAveragePrecision(r: JudgedRanking, level = 1): number {
  let nonrel = 0;
  let rel = 0;
  let unjudged = 0;
  let sum = 0;
  for (let j = 0; j < r.grades.length; j++) {
    const g = r.grades[j]!;
    if (g === NONPOOL) continue;
    if (g === UNJUDGED) {
      unjudged++;
      continue;
    }
    if (g < level) {
      nonrel++;
      continue;
    }
    rel++;
    if (j === 0) sum += 1;
    else {
      const fj = j;
      sum +=
        1 / (fj + 1) +
        (fj / (fj + 1)) *
          ((rel - 1 + nonrel + unjudged) / fj) *
          ((rel - 1 + INFAP_EPSILON) / (rel - 1 + nonrel + 2 * INFAP_EPSILON));
    }
  }
  return r.numRel ? sum / r.numRel : sum;
}

/** map_cut: AP over the top k (cutoffs ascending; the sum over all relevant), 0 without relevant documents. */
export function averagePrecisionAtCutoffs(r: JudgedRanking, cutoffs: readonly number[], level = 1): number[] {
  const out = new Array<number>(cutoffs.length).fill(0);
  if (r.numRel === 0) return out;
  let c = 0;
  let rel = 0;
  let sum = 0;
  for (let i = 0; i < r.grades.length; i++) {
    if (i === cutoffs[c]) {
      out[c] = sum / r.numRel;
      if (++c === cutoffs.length) return out;
    }
    if (r.grades[i]! >= level) {
      rel++;
      sum += rel / (i + 1);
    }
  }
  for (; c < cutoffs.length; c++) out[c] = sum / r.numRel;
  return out;
}

/** num_nonrel_judged_ret: retrieved documents judged below the relevance level. */
export function judgedNonrelevantRetrieved(r: JudgedRanking, level = 1): number {
  let n = 0;
  for (let i = 0; i < r.grades.length; i++) if (r.grades[i]! >= 0 && r.grades[i]! < level) n++;
  return n;
}

/** relative_P: relevant in the top k over min(k, R) (cutoffs ascending); 0 without relevant documents. */
export function relativePrecisionAt(r: JudgedRanking, cutoffs: readonly number[], level = 1): number[] {
  const out = new Array<number>(cutoffs.length).fill(0);
  if (r.numRel === 0) return out;
  let c = 0;
  let rel = 0;
  for (let i = 0; i < r.grades.length; i++) {
    if (i === cutoffs[c]) {
      out[c] = rel / Math.min(i, r.numRel);
      if (++c === cutoffs.length) return out;
    }
    if (r.grades[i]! >= level) rel++;
  }
  for (; c < cutoffs.length; c++) out[c] = rel / Math.min(cutoffs[c]!, r.numRel);
  return out;
}
