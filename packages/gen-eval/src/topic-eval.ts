// One topic's share of an eval dict: every context, every candidate question, both variants, all metrics.

import {
  bm25Scores,
  type CollectionStats,
  countQuery,
  DirichletScorer,
  dirichletScoresFloat32,
  type QueryModel,
  qulacQueryModel,
  type RankingHead,
  rankingHead,
  type TermIdDocuments,
  TopicIndex,
} from "@convkit/retrieval";
import { type JudgedRanking, ndcgAtCutoffs, precisionAt, reciprocalRank } from "@convkit/trec-eval";

/** The metrics of an eval dict, in upstream order (cutoffs of nDCG and P, then MRR@100). */
export const DICT_METRICS = [
  ["NDCG1", "ndcg", 1],
  ["NDCG3", "ndcg", 3],
  ["NDCG5", "ndcg", 5],
  ["NDCG10", "ndcg", 10],
  ["NDCG20", "ndcg", 20],
  ["P1", "p", 1],
  ["P3", "p", 3],
  ["P5", "p", 5],
  ["P10", "p", 10],
  ["P20", "p", 20],
  ["MRR100", "rr", 100],
] as const;

/** Deepest rank any metric looks at. */
const METRIC_DEPTH = 100;

/** How documents are ranked. */
export interface RankingOptions {
  /** `ql`: Qulac's query likelihood; `dirichlet`: Dirichlet LM on the concatenated query; `bm25`. */
  model: "ql" | "dirichlet" | "bm25";
  mu?: number;
  k1?: number;
  b?: number;
  /** Qulac's C `float` arithmetic (query likelihood and Dirichlet only). */
  float32?: boolean;
}

/** A candidate question of a context: its id and the context's facet's question text and answer, as terms. */
export interface Candidate {
  question_id: string;
  question: readonly string[];
  answer: readonly string[];
}

/** One context to evaluate: its dict key, facet, history turns (terms) and candidates. */
export interface ContextTask {
  key: string | number;
  facet: string;
  /** Each history turn's `question + ' ' + answer`, as terms. */
  history: readonly (readonly string[])[];
  candidates: readonly Candidate[];
}

/** Everything one topic needs, plain data (it crosses to worker threads). */
export interface TopicTask {
  topic_id: number;
  request: readonly string[];
  docnos: readonly string[];
  /** Each document's terms, or all of them as term numbers with the vocabulary. */
  docTerms: readonly (readonly string[])[] | TermIdDocuments;
  /** Facet id → [docno, grade] pairs. */
  qrels: Record<string, readonly (readonly [string, number])[]>;
  contexts: readonly ContextTask[];
  /** Collection statistics as [term, cf] pairs and |C|; absent: the topic's documents. */
  stats?: { cf: readonly (readonly [string, number])[]; totalLength: number };
  ranking: RankingOptions;
}

/** One eval-dict value pair. */
export type Pair = readonly [noAnswer: number, withAnswer: number];

/** A context's values for one metric: [question id, pair] in candidate order, then MAX and MIN. */
type ContextValues = readonly (readonly [string, Pair])[];

/** A topic's results: per metric (DICT_METRICS order), [context key, values] in context order. */
export type TopicResult = (readonly [string | number, ContextValues])[][];

/**
 * The query terms of a candidate in one variant: Qulac's QA side is every history turn's
 * `question answer`, then the candidate's question, then (with_answer) its answer.
 */
export function qaTerms(
  history: readonly (readonly string[])[],
  c: Candidate,
  withAnswer: boolean,
): string[] {
  const out: string[] = [];
  for (const h of history) out.push(...h);
  out.push(...c.question);
  if (withAnswer) out.push(...c.answer);
  return out;
}

/** A topic's ranking function: request + QA terms → every document's score (the array is reused by the next call). */
export function topicScorer(
  index: TopicIndex,
  stats: CollectionStats,
  o: RankingOptions,
): (request: readonly string[], qa: readonly string[]) => Float64Array {
  const mu = o.mu ?? 1500;
  if (o.model === "bm25")
    return (r, qa) => bm25Scores(index, countQuery([...r, ...qa]), { k1: o.k1, b: o.b });
  const query = (r: readonly string[], qa: readonly string[]): QueryModel =>
    o.model === "ql" ? qulacQueryModel(r, qa, o.float32) : countQuery([...r, ...qa]);
  if (o.float32) return (r, qa) => dirichletScoresFloat32(index, query(r, qa), stats, mu);
  const scorer = new DirichletScorer(index, stats, mu);
  const buffer = new Float64Array(index.size); // each ranking is taken before the next query
  return (r, qa) => scorer.scores(query(r, qa), buffer);
}

/** Grades of a facet aligned with the topic's documents, and its judged-grade histogram. */
interface FacetJudgments {
  grades: Int32Array;
  relLevels: number[];
  numRel: number;
}

function judgments(index: TopicIndex, qrels: readonly (readonly [string, number])[]): FacetJudgments {
  const byDoc = new Map(qrels);
  const grades = Int32Array.from(index.docnos, (d) => {
    const g = byDoc.get(d);
    return g === undefined ? -1 : g < 0 ? -2 : g;
  });
  const relLevels: number[] = [];
  for (const g of byDoc.values()) if (g >= 0) relLevels[g] = (relLevels[g] ?? 0) + 1;
  for (let i = 0; i < relLevels.length; i++) relLevels[i] ??= 0;
  let numRel = 0;
  for (let g = 1; g < relLevels.length; g++) numRel += relLevels[g]!;
  return { grades, relLevels, numRel };
}

/** Ranks every metric but MRR100 looks at: the head's part kept in exact order. */
const SORTED_DEPTH = 20;

/**
 * The metric values of one ranking's head against a facet's judgments: nDCG and P from its sorted
 * part, MRR@100 from there or, past it, from how many of the head beat its best relevant document.
 */
export function rankingMetrics(head: RankingHead, tieRank: Int32Array, j: FacetJudgments): Float64Array {
  const grades = new Int32Array(head.sorted);
  for (let i = 0; i < head.sorted; i++) grades[i] = j.grades[head.docs[i]!]!;
  const r: JudgedRanking = { grades, relLevels: j.relLevels, numRel: j.numRel, numRelRet: 0 };
  const ndcg = ndcgAtCutoffs(r, NDCG_CUTOFFS);
  let rr = reciprocalRank(r, 1, METRIC_DEPTH);
  if (rr === 0 && head.sorted < head.docs.length) {
    // The best relevant document of the unsorted rest, and its rank among the head.
    let best = -1;
    for (let i = head.sorted; i < head.docs.length; i++) {
      if (j.grades[head.docs[i]!]! < 1) continue;
      if (best < 0 || beats(head, tieRank, i, best)) best = i;
    }
    if (best >= 0) {
      let rank = head.sorted + 1;
      for (let i = head.sorted; i < head.docs.length; i++)
        if (i !== best && beats(head, tieRank, i, best)) rank++;
      if (rank <= METRIC_DEPTH) rr = 1 / rank;
    }
  }
  const out = new Float64Array(DICT_METRICS.length);
  let n = 0;
  for (let m = 0; m < DICT_METRICS.length; m++) {
    const [, kind, k] = DICT_METRICS[m]!;
    out[m] = kind === "ndcg" ? ndcg[n++]! : kind === "p" ? precisionAt(r, k) : rr;
  }
  return out;
}

/** Whether head entry `a` ranks above entry `b` (score descending, ties by docno descending). */
function beats(head: RankingHead, tieRank: Int32Array, a: number, b: number): boolean {
  const sa = head.scores[a]!;
  const sb = head.scores[b]!;
  return sa > sb || (sa === sb && tieRank[head.docs[a]!]! < tieRank[head.docs[b]!]!);
}

const NDCG_CUTOFFS = DICT_METRICS.filter(([, kind]) => kind === "ndcg").map(([, , k]) => k);

/**
 * Evaluates a topic: per context whose facet has relevant documents (others are left out, as
 * upstream does), per candidate, the ranking of the topic's documents for the request plus the
 * question (`no_answer`) and plus question and answer (`with_answer`), and the metrics of both;
 * then `MAX` and `MIN` per metric and variant. A candidate id seen twice keeps its first position
 * and its last values, as assigning into a Python dict does.
 */
export function evaluateTopic(task: TopicTask): TopicResult {
  const index = new TopicIndex(task.docnos, task.docTerms);
  const stats: CollectionStats = task.stats
    ? { cf: new Map(task.stats.cf), totalLength: task.stats.totalLength }
    : index.stats();
  const score = topicScorer(index, stats, task.ranking);
  const facetJudgments = new Map<string, FacetJudgments>();
  // The same query text gives the same ranking (no_answer queries repeat across facets); bounded.
  const ranked = new Map<string, RankingHead>();
  const result: TopicResult = DICT_METRICS.map(() => []);
  for (const ctx of task.contexts) {
    let j = facetJudgments.get(ctx.facet);
    if (!j) {
      j = judgments(index, task.qrels[ctx.facet] ?? []);
      facetJudgments.set(ctx.facet, j);
    }
    if (j.numRel === 0) continue;
    const perMetric = DICT_METRICS.map(() => new Map<string, [number, number]>());
    for (const c of ctx.candidates) {
      const values: Float64Array[] = [];
      for (const withAnswer of [false, true]) {
        const qa = qaTerms(ctx.history, c, withAnswer);
        const key = qa.join(" ");
        let top = ranked.get(key);
        if (!top) {
          top = rankingHead(score(task.request, qa), index.tieRank, METRIC_DEPTH, SORTED_DEPTH);
          if (ranked.size >= 50_000) ranked.clear();
          ranked.set(key, top);
        }
        values.push(rankingMetrics(top, index.tieRank, j));
      }
      DICT_METRICS.forEach((_, m) => {
        perMetric[m]!.set(c.question_id, [values[0]![m]!, values[1]![m]!]);
      });
    }
    DICT_METRICS.forEach((_, m) => {
      const entries = [...perMetric[m]!];
      const pairs = entries.map((e) => e[1]);
      const ext = (f: (...x: number[]) => number, v: 0 | 1) => f(...pairs.map((p) => p[v]));
      const out: [string, Pair][] = entries;
      out.push(["MAX", [ext(Math.max, 0), ext(Math.max, 1)]], ["MIN", [ext(Math.min, 0), ext(Math.min, 1)]]);
      result[m]!.push([ctx.key, out]);
    });
  }
  return result;
}
