// rank_bm25 0.2.x's BM25Okapi, float for float (numpy's evaluation order), and get_top_n's tie order.
import { numpyArgsort } from "@convkit/pycompat";

/** BM25Okapi parameters (rank_bm25's defaults). */
export interface Bm25Params {
  k1?: number;
  b?: number;
  epsilon?: number;
}

/** A BM25Okapi index over tokenized documents. */
export class Bm25Okapi {
  readonly k1: number;
  readonly b: number;
  readonly epsilon: number;
  private readonly docFreqs: Map<string, number>[] = [];
  /** term → [doc, tf, doc, tf, …]: documents without the term would add idf·0 = 0, so they are skipped. */
  private readonly postings = new Map<string, number[]>();
  private readonly docLen: number[] = [];
  private readonly idf = new Map<string, number>();
  readonly avgdl: number;
  readonly averageIdf: number;

  constructor(corpus: readonly (readonly string[])[], params: Bm25Params = {}) {
    this.k1 = params.k1 ?? 1.5;
    this.b = params.b ?? 0.75;
    this.epsilon = params.epsilon ?? 0.25;
    const nd = new Map<string, number>();
    let total = 0;
    for (const doc of corpus) {
      this.docLen.push(doc.length);
      total += doc.length;
      const f = new Map<string, number>();
      for (const w of doc) f.set(w, (f.get(w) ?? 0) + 1);
      this.docFreqs.push(f);
      for (const [w, tf] of f) {
        nd.set(w, (nd.get(w) ?? 0) + 1);
        const p = this.postings.get(w);
        if (p) p.push(this.docFreqs.length - 1, tf);
        else this.postings.set(w, [this.docFreqs.length - 1, tf]);
      }
    }
    const N = corpus.length;
    this.avgdl = total / N;
    // idf = log(N - df + 0.5) - log(df + 0.5); negative idfs become epsilon * mean idf.
    let idfSum = 0;
    const negative: string[] = [];
    for (const [w, df] of nd) {
      const idf = Math.log(N - df + 0.5) - Math.log(df + 0.5);
      this.idf.set(w, idf);
      idfSum += idf;
      if (idf < 0) negative.push(w);
    }
    this.averageIdf = idfSum / this.idf.size;
    const eps = this.epsilon * this.averageIdf;
    for (const w of negative) this.idf.set(w, eps);
  }

  /** get_scores: per query term (repeats included), added in numpy's order of operations. */
  scores(query: readonly string[]): Float64Array {
    const score = new Float64Array(this.docLen.length);
    const { k1, b, avgdl } = this;
    for (const q of query) {
      const idf = this.idf.get(q) ?? 0;
      const p = this.postings.get(q);
      if (!p) continue;
      for (let j = 0; j < p.length; j += 2) {
        const i = p[j]!;
        const tf = p[j + 1]!;
        score[i]! += idf * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.docLen[i]!) / avgdl)));
      }
    }
    return score;
  }

  /** get_top_n's order: numpy's quicksort argsort of the scores, reversed, first n (ties as numpy leaves them). */
  topN(query: readonly string[], n: number): number[] {
    const scores = this.scores(query);
    const fast = distinctTop(scores, n);
    if (fast) return fast;
    const order = numpyArgsort(scores);
    const out: number[] = [];
    for (let i = order.length - 1; i >= 0 && out.length < n; i--) {
      const d = order[i];
      if (d === undefined) break;
      out.push(d);
    }
    return out;
  }
}

/**
 * The n best documents when they and the (n+1)-th best all have different scores: they then sit
 * at the end of any ascending sort in value order, so numpy's tie order does not come into it.
 * Undefined when there is a tie to settle (the caller runs the real sort).
 */
function distinctTop(scores: Float64Array, n: number): number[] | undefined {
  const k = Math.min(n + 1, scores.length);
  if (k <= 0) return [];
  const idx: number[] = [];
  const val: number[] = []; // val[j] = scores[idx[j]], kept beside for the comparisons
  for (let i = 0; i < scores.length; i++) {
    const v = scores[i];
    if (v === undefined || Number.isNaN(v)) return undefined; // NaN: leave it to the real sort
    const last = val[k - 1]; // undefined while fewer than k are kept
    if (last === undefined || v > last) {
      let j = k - 1;
      if (last === undefined) {
        j = idx.length;
        idx.push(i);
        val.push(v);
      }
      for (; j > 0; j--) {
        const pi = idx[j - 1];
        const pv = val[j - 1];
        if (pi === undefined || pv === undefined || !(pv < v)) break;
        idx[j] = pi;
        val[j] = pv;
      }
      idx[j] = i;
      val[j] = v;
    } else if (v === last && k <= n) return undefined;
  }
  for (let j = 1; j < val.length; j++) if (val[j - 1] === val[j]) return undefined;
  return idx.slice(0, n);
}
