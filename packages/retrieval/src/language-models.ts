// Scoring a topic's documents with postings: Qulac's query likelihood, Dirichlet LM and BM25
// (their references, the formulas document by document, are language-models.reference.ts).
import type { CollectionStats, TopicIndex } from "./topic-index.js";

/** A weighted query: distinct terms in order of first appearance, one weight each. */
export interface QueryModel {
  readonly terms: readonly string[];
  readonly weights: Float64Array;
}

/** Term counts of a token list as a query model (raw counts as weights): Dirichlet LM and BM25 queries. */
export function countQuery(tokens: readonly string[]): QueryModel {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return { terms: [...m.keys()], weights: Float64Array.from(m.values()) };
}

const requestCounts = new WeakMap<readonly string[], Map<string, number>>();

/**
 * Qulac's query model: `q(t) = 0.5·tf(t,Q)/|Q| + 0.5·tf(t,QA)/|QA|` over the request tokens Q and
 * the question-answer tokens QA. An empty side gives its half to the other (an empty QA is the
 * request alone); with `float32` every operation is rounded to a C `float`.
 */
export function qulacQueryModel(
  request: readonly string[],
  qa: readonly string[],
  float32 = false,
): QueryModel {
  const r = float32 ? Math.fround : (x: number) => x;
  // Request counts are the same for every query of a topic: counted once per request array.
  let q = requestCounts.get(request);
  if (!q) {
    q = new Map<string, number>();
    for (const t of request) q.set(t, (q.get(t) ?? 0) + 1);
    requestCounts.set(request, q);
  }
  const a = new Map<string, number>();
  for (const t of qa) a.set(t, (a.get(t) ?? 0) + 1);
  const terms = [...q.keys()];
  for (const t of a.keys()) if (!q.has(t)) terms.push(t);
  const wq = qa.length === 0 ? 1 : request.length === 0 ? 0 : 0.5;
  const wa = request.length === 0 ? 1 : qa.length === 0 ? 0 : 0.5;
  const weights = new Float64Array(terms.length);
  for (const [k, t] of terms.entries()) {
    const x = request.length ? r(wq * r((q.get(t) ?? 0) / request.length)) : 0;
    const y = qa.length ? r(wa * r((a.get(t) ?? 0) / qa.length)) : 0;
    weights[k] = r(x + y);
  }
  return { terms, weights };
}

/**
 * Dirichlet-smoothed query likelihood with postings: `Σ_t w(t)·log((tf(t,d) + μ·cf(t)/|C|) / (|d| + μ))`
 * rewritten as a document-independent part, a length part and a sum over the query terms the
 * document holds. Terms absent from the collection (cf = 0) are skipped: they would make every
 * score −∞. A scorer keeps, per term, its documents' `log(tf + μ·p) − log(μ·p)` and, per document,
 * `log(|d| + μ)`, so the many queries of a topic (which share most terms) take no logarithms.
 */
export class DirichletScorer {
  private readonly logLen: Float64Array;
  private readonly terms = new Map<string, { base: number; docs: Int32Array; gain: Float64Array } | null>();

  constructor(
    private readonly index: TopicIndex,
    private readonly stats: CollectionStats,
    private readonly mu = 1500,
  ) {
    this.logLen = Float64Array.from(index.lengths, (l) => Math.log(l + mu));
  }

  private term(t: string) {
    let e = this.terms.get(t);
    if (e !== undefined) return e;
    const cf = this.stats.cf.get(t) ?? 0;
    if (cf === 0) e = null;
    else {
      const prior = (this.mu * cf) / this.stats.totalLength;
      const base = Math.log(prior);
      const p = this.index.postings.get(t) ?? new Int32Array(0);
      const docs = new Int32Array(p.length / 2);
      const gain = new Float64Array(p.length / 2);
      for (let j = 0; j < p.length; j += 2) {
        const d = p[j];
        const tf = p[j + 1];
        if (d === undefined || tf === undefined) break;
        docs[j / 2] = d;
        gain[j / 2] = Math.log(tf + prior) - base;
      }
      e = { base, docs, gain };
    }
    this.terms.set(t, e);
    return e;
  }

  /**
   * Scores of every document for a weighted query. With `into`, they are written there (a
   * buffer reused across the many queries of a topic: no garbage per query).
   */
  scores(query: QueryModel, into?: Float64Array): Float64Array {
    const n = this.index.size;
    const scores = into ?? new Float64Array(n);
    if (into) scores.fill(0);
    let constant = 0;
    let weight = 0;
    for (const [k, t] of query.terms.entries()) {
      const w = query.weights[k];
      if (w === undefined) throw new RangeError("QueryModel: one weight per term");
      const e = this.term(t);
      if (e === null || w === 0) continue;
      constant += w * e.base;
      weight += w;
      const { docs, gain } = e;
      for (let j = 0; j < docs.length; j++) scores[docs[j]!]! += w * gain[j]!;
    }
    const logLen = this.logLen;
    for (let d = 0; d < n; d++) scores[d]! += constant - weight * logLen[d]!;
    return scores;
  }
}

/** {@link DirichletScorer} for one query. */
export function dirichletScores(
  index: TopicIndex,
  query: QueryModel,
  stats: CollectionStats,
  mu = 1500,
): Float64Array {
  return new DirichletScorer(index, stats, mu).scores(query);
}

/**
 * Dirichlet query likelihood in C `float` arithmetic, as the original implementation computed
 * it: per document, terms in query order, each operation rounded to float32
 * (`s += q·logf((tf + μ·cf/|C|) / (|d| + μ))`, `logf` as the correctly rounded float log).
 * Term frequencies come from the postings scattered into one row per query term.
 */
export function dirichletScoresFloat32(
  index: TopicIndex,
  query: QueryModel,
  stats: CollectionStats,
  mu = 1500,
): Float64Array {
  const f = Math.fround;
  const n = index.size;
  const muF = f(mu);
  const rows: { w: number; prior: number; tf: Float64Array }[] = [];
  for (const [k, t] of query.terms.entries()) {
    const w = query.weights[k];
    if (w === undefined) throw new RangeError("QueryModel: one weight per term");
    const cf = stats.cf.get(t) ?? 0;
    if (cf === 0) continue;
    const tf = new Float64Array(n);
    const p = index.postings.get(t);
    if (p) for (let j = 0; j < p.length; j += 2) tf[p[j]!] = p[j + 1]!;
    rows.push({ w: f(w), prior: f(f(muF * cf) / stats.totalLength), tf });
  }
  const scores = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    const len = f(index.lengths[d]! + muF);
    let s = 0;
    for (const r of rows) s = f(s + f(r.w * f(Math.log(f(f(r.tf[d]! + r.prior) / len)))));
    scores[d] = s;
  }
  return scores;
}

/** BM25 parameters. */
export interface Bm25Options {
  k1?: number;
  b?: number;
}

/**
 * BM25 over a topic's documents: `Σ_t w(t)·idf(t)·tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl))` with
 * Lucene's non-negative `idf = ln(1 + (N − df + 0.5)/(df + 0.5))`, N, df and avgdl from the
 * topic's documents; defaults k1 = 0.9, b = 0.4 (Anserini's).
 */
export function bm25Scores(index: TopicIndex, query: QueryModel, o: Bm25Options = {}): Float64Array {
  const k1 = o.k1 ?? 0.9;
  const b = o.b ?? 0.4;
  const n = index.size;
  const scores = new Float64Array(n);
  let total = 0;
  for (const l of index.lengths) total += l;
  const avgdl = total / n;
  for (const [k, t] of query.terms.entries()) {
    const w = query.weights[k];
    if (w === undefined) throw new RangeError("QueryModel: one weight per term");
    const p = index.postings.get(t);
    if (!p) continue;
    const df = p.length / 2;
    const wIdf = w * Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let j = 0; j < p.length; j += 2) {
      const tf = p[j + 1]!;
      const d = p[j]!;
      scores[d]! += (wIdf * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * index.lengths[d]!) / avgdl));
    }
  }
  return scores;
}
