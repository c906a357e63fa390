// The references of language-models.ts's scorers: each formula computed document by document,
// term by term, with tf and df looked up rather than scattered from postings. Tests only
// (language-models.test.ts compares them with the fast scorers).
import type { Bm25Options, QueryModel } from "./language-models.js";
import type { CollectionStats, TopicIndex } from "./topic-index.js";

/** `dirichletScores` (language-models.ts) from the formula itself, document by document, term by term (a reference for tests). */
export function dirichletScoresReference(
  index: TopicIndex,
  query: QueryModel,
  stats: CollectionStats,
  mu = 1500,
): Float64Array {
  return Float64Array.from(index.lengths, (len, d) => {
    let s = 0;
    query.terms.forEach((t, k) => {
      const cf = stats.cf.get(t) ?? 0;
      if (cf === 0) return;
      s += weight(query, k) * Math.log((index.tf(t, d) + (mu * cf) / stats.totalLength) / (len + mu));
    });
    return s;
  });
}

/** `dirichletScoresFloat32` from the formula directly (tf by scanning postings): the float32 reference. */
export function dirichletScoresFloat32Reference(
  index: TopicIndex,
  query: QueryModel,
  stats: CollectionStats,
  mu = 1500,
): Float64Array {
  const f = Math.fround;
  return Float64Array.from(index.lengths, (len, d) => {
    let s = 0;
    query.terms.forEach((t, k) => {
      const cf = stats.cf.get(t) ?? 0;
      if (cf === 0) return;
      const prior = f(f(f(mu) * cf) / stats.totalLength);
      const ratio = f(f(index.tf(t, d) + prior) / f(len + f(mu)));
      s = f(s + f(f(weight(query, k)) * f(Math.log(ratio))));
    });
    return s;
  });
}

/** `bm25Scores` from the formula directly (a reference for tests). */
export function bm25ScoresReference(index: TopicIndex, query: QueryModel, o: Bm25Options = {}): Float64Array {
  const k1 = o.k1 ?? 0.9;
  const b = o.b ?? 0.4;
  const n = index.size;
  const avgdl = index.lengths.reduce((a, x) => a + x, 0) / n;
  return Float64Array.from(index.lengths, (len, d) => {
    let s = 0;
    query.terms.forEach((t, k) => {
      const tf = index.tf(t, d);
      if (tf === 0) return;
      const df = index.df(t);
      s +=
        weight(query, k) *
        Math.log(1 + (n - df + 0.5) / (df + 0.5)) *
        ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / avgdl)));
    });
    return s;
  });
}

/** The weight of the query's k-th term; a model with fewer weights than terms is a bug. */
function weight(query: QueryModel, k: number): number {
  const w = query.weights[k];
  if (w === undefined) throw new RangeError("QueryModel: one weight per term");
  return w;
}
