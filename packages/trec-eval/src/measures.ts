// trec_eval's per-topic measures (its m_*.c files: P, recall, map, gm_map, Rprec, bpref, infAP, iprec_at_recall, ndcg_cut, map_cut, …), step for step.
import { type JudgedRanking, NONPOOL, UNJUDGED } from "./judged-ranking.js";
import { log2Int } from "./log2.js";

/** P@k: relevant documents in the top k over k (k fixed even when fewer were retrieved). */
export function precisionAt(r: JudgedRanking, k: number, level = 1): number {
  let rel = 0;
  const n = Math.min(k, r.grades.length);
  for (let i = 0; i < n; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    if (grade >= level) rel++;
  }
  return rel / k;
}

/** recall@k: relevant documents in the top k over all relevant documents (0 when there are none). */
export function recallAt(r: JudgedRanking, k: number, level = 1): number {
  if (r.numRel === 0) return 0;
  let rel = 0;
  const n = Math.min(k, r.grades.length);
  for (let i = 0; i < n; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    if (grade >= level) rel++;
  }
  return rel / r.numRel;
}

/** Average precision: sum of precision at each relevant retrieved document, over all relevant. */
export function averagePrecision(r: JudgedRanking, level = 1): number {
  if (r.numRel === 0) return 0;
  let rel = 0;
  let sum = 0;
  for (let i = 0; i < r.grades.length; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    if (grade >= level) {
      rel++;
      sum += rel / (i + 1);
    }
  }
  return sum / r.numRel;
}

/** Reciprocal rank of the first relevant document within the top `cutoff` (all when absent). */
export function reciprocalRank(r: JudgedRanking, level = 1, cutoff = Number.POSITIVE_INFINITY): number {
  const n = Math.min(cutoff, r.grades.length);
  for (let i = 0; i < n; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    if (grade >= level) return 1 / (i + 1);
  }
  return 0;
}

/** R-precision: precision at rank num_rel. */
export function rPrecision(r: JudgedRanking, level = 1): number {
  if (r.numRel === 0) return 0;
  let rel = 0;
  const n = Math.min(r.numRel, r.grades.length);
  for (let i = 0; i < n; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    if (grade >= level) rel++;
  }
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
    const g = r.grades[i];
    if (g === undefined) break;
    if (g > 0) dcg += g / log2Int(i + 2);
  }
  let ideal = 0;
  let i = 0;
  for (let lvl = r.relLevels.length - 1; lvl > 0 && i < k; lvl--) {
    const count = r.relLevels[lvl];
    if (count === undefined) break;
    for (let c = 0; c < count && i < k; c++, i++) ideal += lvl / log2Int(i + 2);
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
      const g = r.grades[i];
      if (g === undefined) break;
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
  for (const count of r.relLevels.slice(0, Math.max(0, Math.ceil(level)))) numNonrel += count;
  let nonrelSoFar = 0;
  let sum = 0;
  for (let i = 0; i < r.grades.length; i++) {
    const g = r.grades[i];
    if (g === undefined) break;
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
    const g = r.grades[i - 1];
    if (g === undefined) break;
    if (g >= level) {
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
    const g = r.grades[i - 1];
    if (g === undefined) break;
    if (g >= level) relSoFar--;
  }
  return out;
}

/** success@k: 1 when a relevant document is in the top k. */
export function successAt(r: JudgedRanking, k: number, level = 1): number {
  const n = Math.min(k, r.grades.length);
  for (let i = 0; i < n; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    if (grade >= level) return 1;
  }
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
    const g = r.grades[j];
    if (g === undefined) break;
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
    const grade = r.grades[i];
    if (grade === undefined) break;
    if (grade >= level) {
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
  for (const g of r.grades) if (g >= 0 && g < level) n++;
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
    const grade = r.grades[i];
    if (grade === undefined) break;
    if (grade >= level) rel++;
  }
  for (; c < cutoffs.length; c++) out[c] = rel / Math.min(cutoffs[c]!, r.numRel);
  return out;
}

/** One grade's gain and how many of the topic's judged documents have it (trec_eval's REL_GAIN). */
export interface GainLevel {
  readonly level: number;
  readonly gain: number;
  count: number;
}

/**
 * trec_eval's gain table (gain_init.c) for the gain-based measures (ndcg, ndcg_rel, Rndcg, G,
 * rbp): `level=gain` parameters first (names that are not integers, such as rbp's `p`, skipped),
 * then every judged grade not given one, with gain = grade; sorted by increasing gain with
 * trec_eval's comparator, which truncates the difference to an int (gains less than 1 apart
 * compare equal and keep their order: a stable sort, as glibc's qsort is on a few elements).
 */
export function gainTable(
  r: JudgedRanking,
  params: readonly (readonly [string, number])[] = [],
): GainLevel[] {
  const gains: GainLevel[] = [];
  for (const [name, gain] of params)
    if (/^-?\d+$/.test(name)) gains.push({ level: Number.parseInt(name, 10), gain, count: 0 });
  for (const [level, count] of r.relLevels.entries()) {
    const given = gains.find((g) => g.level === level);
    if (given) given.count = count;
    else gains.push({ level, gain: level, count });
  }
  return gains.sort((a, b) => Math.trunc(a.gain - b.gain));
}

/** The gain of a retrieved document's grade: its table entry's, 0 when the table has none (unjudged). */
function gainOf(gains: readonly GainLevel[], grade: number): number {
  for (const g of gains) if (g.level === grade) return g.gain;
  return 0;
}

/**
 * The ideal ranking's gains, best first, one step per rank, as trec_eval walks them: `gain` is
 * the current level's before the first step (even a level no document has).
 */
class IdealGains {
  private cur: number;
  private atLevel = 0;
  gain: number;
  constructor(private readonly gains: readonly GainLevel[]) {
    this.cur = gains.length - 1;
    this.gain = this.cur >= 0 ? gains[this.cur]!.gain : 0;
  }
  step(): void {
    this.atLevel++;
    while (this.cur >= 0 && this.atLevel > this.gains[this.cur]!.count) {
      this.atLevel = 1;
      this.cur--;
      this.gain = this.cur >= 0 ? this.gains[this.cur]!.gain : 0;
    }
  }
}

/** log2 as C's: glibc's value for the integers trec_eval's discounts take, V8's otherwise. */
function log2(x: number): number {
  return Number.isInteger(x) && x >= 1 ? log2Int(x) : Math.log2(x);
}

/** ndcg (Järvelin and Kekäläinen) over the whole ranking, with its DCG and ideal DCG (m_ndcg.c). */
export function ndcgFull(
  r: JudgedRanking,
  gains: readonly GainLevel[],
): { ndcg: number; dcg: number; idealDcg: number } {
  const w = new IdealGains(gains);
  const n = r.grades.length;
  let dcg = 0;
  let ideal = 0;
  let i = 0;
  for (; i < n && w.gain > 0; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    const g = gainOf(gains, grade);
    if (g !== 0) dcg += g / log2(i + 2);
    w.step();
    if (w.gain > 0) ideal += w.gain / log2(i + 2);
  }
  for (; i < n; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    const g = gainOf(gains, grade);
    if (g !== 0) dcg += g / log2(i + 2);
  }
  for (; w.gain > 0; i++) {
    w.step();
    if (w.gain > 0) ideal += w.gain / log2(i + 2);
  }
  return { ndcg: ideal > 0 ? dcg / ideal : 0, dcg, idealDcg: ideal };
}

/** ndcg_rel: nDCG averaged at each relevant (positive gain) document; unretrieved ones count the final nDCG. */
export function ndcgAtRelevant(r: JudgedRanking, gains: readonly GainLevel[]): number {
  const w = new IdealGains(gains);
  const n = r.grades.length;
  let dcg = 0;
  let ideal = 0;
  let sum = 0;
  let relRet = 0;
  let rel = 0;
  let i = 0;
  for (; i < n && w.gain > 0; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    const g = gainOf(gains, grade);
    if (g !== 0) dcg += g / log2(i + 2);
    w.step();
    if (w.gain > 0) {
      rel++;
      ideal += w.gain / log2(i + 2);
    }
    if (g > 0) {
      sum += dcg / ideal;
      relRet++;
    }
  }
  for (; i < n; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    const g = gainOf(gains, grade);
    if (g !== 0) dcg += g / log2(i + 2);
    if (g > 0) {
      sum += dcg / ideal;
      relRet++;
    }
  }
  for (; w.gain > 0; i++) {
    w.step();
    if (w.gain > 0) {
      rel++;
      ideal += w.gain / log2(i + 2);
    }
  }
  sum += ((rel - relRet) * dcg) / ideal;
  return sum > 0 ? sum / rel : 0;
}

/** Rndcg: nDCG averaged at each rank where the ideal gain changes (the R levels), and at the end of the ranking. */
export function ndcgAtRLevels(r: JudgedRanking, gains: readonly GainLevel[]): number {
  if (r.numRel === 0) return 0;
  const w = new IdealGains(gains);
  const n = r.grades.length;
  let dcg = 0;
  let ideal = 0;
  let sum = 0;
  let changes = 0;
  let old = w.gain;
  const change = () => {
    if (old !== w.gain) {
      if (ideal > 0) {
        sum += dcg / ideal;
        changes++;
      }
      old = w.gain;
    }
  };
  let i = 0;
  for (; i < n && w.gain > 0; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    const g = gainOf(gains, grade);
    w.step();
    change();
    if (g !== 0) dcg += g / log2(i + 2);
    if (w.gain > 0) ideal += w.gain / log2(i + 2);
  }
  if (i < n) {
    for (; i < n; i++) {
      const grade = r.grades[i];
      if (grade === undefined) break;
      const g = gainOf(gains, grade);
      if (g !== 0) dcg += g / log2(i + 2);
    }
    if (ideal > 0) {
      sum += dcg / ideal;
      changes++;
    }
  }
  for (; w.gain > 0; i++) {
    w.step();
    change();
    if (w.gain > 0) ideal += w.gain / log2(i + 2);
  }
  return sum / changes;
}

/** G: each document's gain over log2(2 + ideal cost so far − gain so far), normalized by the ideal total gain. */
export function normalizedGain(r: JudgedRanking, gains: readonly GainLevel[]): number {
  const w = new IdealGains(gains);
  const n = r.grades.length;
  const minCost = 1;
  let g = 0;
  let results = 0;
  let sumIdeal = 0;
  let cost = 0;
  let i = 0;
  for (; i < n && w.gain > 0; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    const x = gainOf(gains, grade);
    results += x;
    w.step();
    if (w.gain > 0) sumIdeal += w.gain;
    cost += Math.max(w.gain, minCost);
    if (x !== 0) g += x / log2(2 + cost - results);
  }
  for (; i < n; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    const x = gainOf(gains, grade);
    results += x;
    cost += minCost;
    if (x !== 0) g += x / log2(2 + cost - results);
  }
  while (w.gain > 0) {
    w.step();
    if (w.gain > 0) sumIdeal += w.gain;
  }
  return sumIdeal > 0 ? g / sumIdeal : 0;
}

/** binG: over the relevant documents, 1 / log2(2 + nonrelevant retrieved before it), over R. */
export function binaryGain(r: JudgedRanking, level = 1): number {
  let rel = 0;
  let sum = 0;
  for (let i = 0; i < r.grades.length; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    if (grade >= level) {
      rel++;
      sum += 1 / log2(3 + i - rel);
    }
  }
  return rel ? sum / r.numRel : 0;
}

/** yaap (Robertson): log((1 + Σ precision at relevant) / (1 + R − that sum)). */
export function yaap(r: JudgedRanking, level = 1): number {
  let rel = 0;
  let sum = 0;
  for (let i = 0; i < r.grades.length; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    if (grade >= level) {
      rel++;
      sum += rel / (i + 1);
    }
  }
  return Math.log((1 + sum) / (1 + r.numRel - sum));
}

/** rbp's persistence `p` from its parameters (default 0.9). */
function persistence(params: readonly (readonly [string, number])[]): number {
  let p = 0.9;
  for (const [name, v] of params) if (name === "p") p = v;
  return p;
}

/**
 * Rank-biased precision (Moffat and Zobel): (1 − p) Σ gain × p^(rank−1), gains rescaled to
 * [0, 1] by the table's min and max when some lie outside. (trec_eval leaves min and max
 * uninitialized; on every table with a grade 0, the real minimum, 0, is what it ends up with.)
 */
export function rankBiasedPrecision(
  r: JudgedRanking,
  params: readonly (readonly [string, number])[],
): number {
  const p = persistence(params);
  const gains = gainTable(r, params).map((g) => ({ ...g }));
  let min = 0;
  let max = 0;
  for (const g of gains) {
    if (g.gain < min) min = g.gain;
    if (g.gain > max) max = g.gain;
  }
  const scaled =
    min < 0 || max > 1 ? gains.map((g) => ({ ...g, gain: (g.gain - min) / (max - min) })) : gains;
  let sum = 0;
  let curP = 1;
  for (let i = 0; i < r.grades.length; i++) {
    const grade = r.grades[i];
    if (grade === undefined) break;
    const g = gainOf(scaled, grade);
    if (g !== 0) sum += g * curP;
    curP *= p;
  }
  return (1 - p) * sum;
}

/** rbp_resid: how much RBP could rise if every unjudged retrieved document had the top gain (0 without any). */
export function rankBiasedResidual(r: JudgedRanking, params: readonly (readonly [string, number])[]): number {
  const p = persistence(params);
  let unjudged = 0;
  let sum = 0;
  let curP = 1;
  for (const g of r.grades) {
    if (g < 0) {
      unjudged++;
      sum += curP;
    }
    curP *= p;
  }
  return unjudged ? curP + (1 - p) * sum : 0;
}

/** unj: the fraction of unjudged documents in the top k (cutoffs ascending); past the ranking, judged ones fill in. */
export function unjudgedAt(r: JudgedRanking, cutoffs: readonly number[]): number[] {
  const out = new Array<number>(cutoffs.length).fill(0);
  let c = 0;
  let unj = 0;
  for (let i = 0; i < r.grades.length; i++) {
    if (i === cutoffs[c]) {
      out[c] = unj / i;
      if (++c === cutoffs.length) return out;
    }
    const g = r.grades[i];
    if (g === NONPOOL || g === UNJUDGED) unj++;
  }
  for (; c < cutoffs.length; c++) out[c] = unj / cutoffs[c]!;
  return out;
}

/** relstring: the grades of the top `n` documents, one character each (`-` not pooled, `.` unjudged, `>` above 9). */
export function relevanceString(r: JudgedRanking, n: number): string {
  let s = "";
  const len = Math.max(0, Math.min(Math.trunc(n), r.grades.length));
  for (let i = 0; i < len; i++) {
    const g = r.grades[i];
    if (g === undefined) break;
    s += g > 9 ? ">" : g >= 0 ? String(g) : g === NONPOOL ? "-" : g === UNJUDGED ? "." : "<";
  }
  return s;
}
