// Per-topic in-memory indexes (postings with term frequencies, document lengths) and collection statistics.
import { strcmpOrder } from "@convkit/trec-eval";

/** Collection statistics for smoothing: term collection frequencies and the total length |C|. */
export interface CollectionStats {
  readonly cf: ReadonlyMap<string, number>;
  readonly totalLength: number;
}

/** Collection statistics of the given documents (each a list of terms). */
export function collectionStats(docs: Iterable<readonly string[]>): CollectionStats {
  const cf = new Map<string, number>();
  let totalLength = 0;
  for (const d of docs) {
    totalLength += d.length;
    for (const t of d) cf.set(t, (cf.get(t) ?? 0) + 1);
  }
  return { cf, totalLength };
}

/**
 * Parses a collection-statistics file: `term<TAB>cf` lines after a first line
 * `__total__<TAB>|C|` (the layout {@link formatCollectionStats} writes).
 */
export function parseCollectionStats(text: string, file = "<stats>"): CollectionStats {
  const cf = new Map<string, number>();
  let totalLength = Number.NaN;
  text.split("\n").forEach((line, i) => {
    if (line === "") return;
    const tab = line.indexOf("\t");
    const n = Number(line.slice(tab + 1));
    if (tab < 0 || !Number.isInteger(n) || n < 0)
      throw new Error(`${file}:${i + 1}: expected term<TAB>count, got ${JSON.stringify(line.slice(0, 80))}`);
    if (i === 0 && line.slice(0, tab) === "__total__") totalLength = n;
    else cf.set(line.slice(0, tab), n);
  });
  if (!Number.isFinite(totalLength)) throw new Error(`${file}:1: expected __total__<TAB>|C| first`);
  return { cf, totalLength };
}

/** The stats file layout: `__total__\t|C|`, then `term\tcf` lines in code-unit order. */
export function formatCollectionStats(s: CollectionStats): string {
  const terms = [...s.cf.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `__total__\t${s.totalLength}\n${terms.map((t) => `${t}\t${s.cf.get(t)}\n`).join("")}`;
}

/** Documents as term numbers (`terms[id]` is the term), e.g. from a tokenizer that numbers terms as it goes. */
export interface TermIdDocuments {
  readonly ids: readonly Int32Array[];
  readonly terms: readonly string[];
}

/** One topic's documents: postings (doc, tf) per term, lengths, docnos; documents are numbered 0..n-1. */
export class TopicIndex {
  readonly docnos: readonly string[];
  readonly lengths: Float64Array;
  /** term → interleaved [doc, tf, doc, tf, …], docs ascending. */
  readonly postings = new Map<string, Int32Array>();
  /** Rank of each document in docno-descending byte order (trec_eval's tie order), 0 = first. */
  readonly tieRank: Int32Array;

  constructor(docnos: readonly string[], docs: readonly (readonly string[])[] | TermIdDocuments) {
    const n = "ids" in docs ? docs.ids.length : docs.length;
    if (docnos.length !== n) throw new Error("TopicIndex: one docno per document");
    this.docnos = docnos;
    this.lengths = new Float64Array(n);
    // Every token as its term number (numbered as met), then two passes over the numbers: each
    // term's documents counted, then one flat postings array filled (no growing list per term).
    let terms: readonly string[];
    let total = 0;
    let tokenIds: Int32Array;
    if ("ids" in docs) {
      terms = docs.terms;
      for (const d of docs.ids) total += d.length;
      tokenIds = new Int32Array(total);
      let at = 0;
      for (let i = 0; i < n; i++) {
        const d = docs.ids[i]!;
        this.lengths[i] = d.length;
        tokenIds.set(d, at);
        at += d.length;
      }
    } else {
      const ids = new Map<string, number>();
      const names: string[] = [];
      for (const d of docs) total += d.length;
      tokenIds = new Int32Array(total);
      let at = 0;
      for (let i = 0; i < n; i++) {
        const d = docs[i]!;
        this.lengths[i] = d.length;
        for (let k = 0; k < d.length; k++) {
          const t = d[k]!;
          let id = ids.get(t);
          if (id === undefined) {
            id = names.length;
            ids.set(t, id);
            names.push(t);
          }
          tokenIds[at++] = id;
        }
      }
      terms = names;
    }
    const df = new Int32Array(terms.length);
    const seen = new Int32Array(terms.length).fill(-1); // last document each term was counted for
    for (let i = 0, at = 0; i < n; i++) {
      const end = at + this.lengths[i]!;
      for (; at < end; at++) {
        const id = tokenIds[at]!;
        if (seen[id] !== i) {
          seen[id] = i;
          df[id]!++;
        }
      }
    }
    const start = new Int32Array(terms.length + 1);
    for (let id = 0; id < terms.length; id++) start[id + 1] = start[id]! + 2 * df[id]!;
    const flat = new Int32Array(start[terms.length]!);
    const fill = start.slice(0, terms.length); // next free slot per term
    const counts = new Int32Array(terms.length);
    const touched = new Int32Array(terms.length);
    let at = 0;
    for (let i = 0; i < n; i++) {
      let nt = 0;
      const end = at + this.lengths[i]!;
      for (; at < end; at++) {
        const id = tokenIds[at]!;
        const c = counts[id]!;
        counts[id] = c + 1;
        if (c === 0) touched[nt++] = id;
      }
      // Postings stay in document order; within a document, terms in order of first occurrence.
      for (let j = 0; j < nt; j++) {
        const id = touched[j]!;
        const f = fill[id]!;
        flat[f] = i;
        flat[f + 1] = counts[id]!;
        fill[id] = f + 2;
        counts[id] = 0;
      }
    }
    for (let id = 0; id < terms.length; id++)
      if (df[id]! > 0) this.postings.set(terms[id]!, flat.subarray(start[id]!, start[id + 1]!));
    const order = docnos.map((_, i) => i).sort((a, b) => strcmpOrder(docnos[b]!, docnos[a]!));
    this.tieRank = new Int32Array(docnos.length);
    order.forEach((d, r) => {
      this.tieRank[d] = r;
    });
  }

  /** Collection statistics of these documents, from the postings (equal to {@link collectionStats} of the same texts). */
  stats(): CollectionStats {
    const cf = new Map<string, number>();
    for (const [t, p] of this.postings) {
      let n = 0;
      for (let j = 1; j < p.length; j += 2) {
        const f = p[j];
        if (f === undefined) break;
        n += f;
      }
      cf.set(t, n);
    }
    let totalLength = 0;
    for (const l of this.lengths) totalLength += l;
    return { cf, totalLength };
  }

  /** Number of documents. */
  get size(): number {
    return this.docnos.length;
  }

  /** Documents containing the term. */
  df(term: string): number {
    return (this.postings.get(term)?.length ?? 0) / 2;
  }

  /** Term frequency of `term` in document `doc` (a scan of the postings: for references and tests). */
  tf(term: string, doc: number): number {
    const p = this.postings.get(term);
    if (!p) return 0;
    for (let j = 0; j < p.length; j += 2) {
      const f = p[j + 1];
      if (p[j] === doc && f !== undefined) return f;
    }
    return 0;
  }
}

const BUCKETS = 1024;
const bucketCounts = new Int32Array(BUCKETS);
let candDocs = new Int32Array(1024);
let candScores = new Float64Array(1024);
let candRanks = new Int32Array(1024);

/**
 * The top `k` documents by score descending, ties by docno descending (trec_eval's order): the
 * {@link rankingHead} of depth `k` sorted all the way.
 */
export function topDocuments(scores: Float64Array, tieRank: Int32Array, k: number): Int32Array {
  const h = rankingHead(scores, tieRank, k, k);
  return h.docs.slice(0, h.sorted);
}

/**
 * The head of a ranking: every document that can rank within some depth, the first `sorted` of
 * them in exact rank order (score descending, ties by docno descending) and the rest in no order.
 * Metrics that look only at the first ranks take the sorted part; a measure deeper than that
 * (reciprocal rank at 100) counts, for the best document it wants in the rest, how many beat it.
 */
export interface RankingHead {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  readonly sorted: number;
}

/**
 * {@link RankingHead} of the top `depth` documents with the first `sorted` in order. Scores are
 * counted into 1,024 equal-width buckets between the lowest and the highest; the documents of the
 * buckets that hold the top `depth` (a superset of it: every document as good as the depth-th)
 * are kept, as they are met, in an insertion-sorted prefix of `sorted` and an unsorted rest (no
 * comparator calls). When the scores crowd into few buckets (more than 4x `depth` candidates) or
 * are all equal, a quickselect sorts the whole top instead.
 */
export function rankingHead(
  scores: Float64Array,
  tieRank: Int32Array,
  depth: number,
  sorted: number,
): RankingHead {
  const n = scores.length;
  const m = Math.min(depth, n);
  const whole = (): RankingHead => {
    const docs = topDocumentsBySelect(scores, tieRank, depth);
    return { docs, scores: Float64Array.from(docs, (d) => scores[d]!), sorted: docs.length };
  };
  if (m <= 0) return { docs: new Int32Array(0), scores: new Float64Array(0), sorted: 0 };
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of scores) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!(hi > lo) || !Number.isFinite(hi - lo)) return whole();
  const scale = (BUCKETS - 1) / (hi - lo);
  bucketCounts.fill(0);
  for (const v of scores) bucketCounts[((v - lo) * scale) | 0]!++;
  let b = BUCKETS - 1;
  for (let acc = 0; b > 0; b--) {
    const c = bucketCounts[b];
    if (c === undefined) break;
    acc += c;
    if (acc >= m) break;
  }
  // Half a bucket below bucket b's lower edge: a plain comparison takes every document of the
  // buckets from b up (and perhaps a few more, which rank after the top `depth`).
  const threshold = b === 0 ? Number.NEGATIVE_INFINITY : lo + (b - 0.5) / scale;
  const limit = 4 * m;
  if (candDocs.length < limit) {
    candDocs = new Int32Array(limit);
    candScores = new Float64Array(limit);
    candRanks = new Int32Array(limit);
  }
  // Prefix [0, p) sorted (at most `sorted` long); the rest, unsorted, fills from the end.
  const cd = candDocs;
  const cs = candScores;
  const cr = candRanks;
  const s = Math.max(1, Math.min(sorted, m));
  let p = 0;
  let tail = limit;
  for (let i = 0; i < n; i++) {
    const v = scores[i];
    const r = tieRank[i];
    if (v === undefined || r === undefined) break;
    if (!(v >= threshold)) continue;
    if (tail - p === 0) return whole();
    const d = i;
    if (p === s) {
      // Full prefix: a document that does not beat its last goes to the rest; one that does
      // pushes the last out to the rest.
      const sl = cs[p - 1];
      const rl = cr[p - 1];
      const dl = cd[p - 1];
      if (sl === undefined || rl === undefined || dl === undefined) break;
      if (!(v > sl || (v === sl && r < rl))) {
        tail--;
        cd[tail] = d;
        cs[tail] = v;
        cr[tail] = r;
        continue;
      }
      tail--;
      cd[tail] = dl;
      cs[tail] = sl;
      cr[tail] = rl;
      p--;
    }
    let j = p - 1;
    for (; j >= 0; j--) {
      const sj = cs[j];
      const rj = cr[j];
      const dj = cd[j];
      if (sj === undefined || rj === undefined || dj === undefined) break;
      if (sj > v || (sj === v && rj < r)) break;
      cs[j + 1] = sj;
      cr[j + 1] = rj;
      cd[j + 1] = dj;
    }
    cs[j + 1] = v;
    cr[j + 1] = r;
    cd[j + 1] = d;
    p++;
  }
  const c = p + (limit - tail);
  const docs = new Int32Array(c);
  const out = new Float64Array(c);
  docs.set(cd.subarray(0, p));
  out.set(cs.subarray(0, p));
  docs.set(cd.subarray(tail, limit), p);
  out.set(cs.subarray(tail, limit), p);
  return { docs, scores: out, sorted: p };
}

/** The sorted top `k` by a quickselect threshold and a sort of the few above it. */
function topDocumentsBySelect(scores: Float64Array, tieRank: Int32Array, k: number): Int32Array {
  const n = scores.length;
  if (k <= 0 || n === 0) return new Int32Array(0);
  const order = (a: number, b: number) => scores[b]! - scores[a]! || tieRank[a]! - tieRank[b]!;
  // Plain arrays: TypedArray#sort with a comparator is several times slower in V8.
  if (n <= k) return Int32Array.from(Array.from({ length: n }, (_, i) => i).sort(order));
  const threshold = kthLargest(scores, k);
  const chosen: number[] = [];
  let ties = 0;
  for (let i = 0; i < n; i++) {
    const v = scores[i];
    if (v === undefined) break;
    if (v > threshold) chosen.push(i);
    else if (v === threshold) ties++;
  }
  if (ties > 0) {
    const t: number[] = [];
    for (let i = 0; i < n; i++) if (scores[i] === threshold) t.push(i);
    t.sort((a, b) => tieRank[a]! - tieRank[b]!);
    for (const d of t) {
      if (chosen.length >= k) break;
      chosen.push(d);
    }
  }
  return Int32Array.from(chosen.sort(order));
}

let scratch = new Float64Array(1024);

/** The k-th largest value (1-based) by quickselect on a scratch copy; NaN-free input assumed. */
function kthLargest(values: Float64Array, k: number): number {
  if (scratch.length < values.length) scratch = new Float64Array(values.length * 2);
  const a = scratch;
  a.set(values);
  let lo = 0;
  let hi = values.length - 1;
  const target = k - 1; // index in descending order
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1] ?? Number.NaN;
    let i = lo;
    let j = hi;
    while (i <= j) {
      // Out of range reads are undefined: the comparisons are false there as at a NaN.
      while ((a[i] ?? Number.NaN) > pivot) i++;
      while ((a[j] ?? Number.NaN) < pivot) j--;
      const ai = a[i];
      const aj = a[j];
      if (i <= j && ai !== undefined && aj !== undefined) {
        a[i] = aj;
        a[j] = ai;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  const v = a[target];
  if (v === undefined) throw new RangeError(`kthLargest: k = ${k} outside 1..${values.length}`);
  return v;
}
