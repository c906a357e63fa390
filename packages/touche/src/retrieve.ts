// Touché Task 1 retrieval over args.me in two streaming passes: query-term statistics, then scoring into per-topic top lists.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type ArgsMeArgument, type RunEntry, readArgsMe, type ToucheTopic } from "@convkit/formats";
import { InputError } from "@convkit/io";
import { porterStem } from "@convkit/text";
import { trecOrder } from "@convkit/trec-eval";

/** Lucene's English stopwords (`EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`). */
const STOPWORDS = new Set(
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(
    " ",
  ),
);

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** word → its stem, or null for a stopword: most words of a corpus repeat. */
const analyzed = new Map<string, string | null>();

function analyze(w: string): string | null {
  let v = analyzed.get(w);
  if (v === undefined) {
    v = STOPWORDS.has(w) ? null : porterStem(w);
    if (analyzed.size < 100_000) analyzed.set(w, v); // bounded: numbers and typos never repeat
  }
  return v;
}

/** An analyzer in Lucene's English spirit: lowercase, letter/digit runs, stopwords out, Porter stems. */
export function toucheTerms(text: string): string[] {
  const t = text.toLowerCase();
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= t.length; i++) {
    const c = i < t.length ? t.charCodeAt(i) : 32;
    // ASCII by code, the rest by Unicode class (surrogate pairs: both halves judged as their code point).
    const word =
      (c >= 97 && c <= 122) ||
      (c >= 48 && c <= 57) ||
      (c > 127 &&
        LETTER_OR_DIGIT.test(String.fromCodePoint(t.codePointAt(i - (c >= 0xdc00 && c < 0xe000 ? 1 : 0))!)));
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      const v = analyze(t.slice(start, i));
      if (v !== null) out.push(v);
      start = -1;
    }
  }
  return out;
}

/** The text an argument is retrieved by: its conclusion and its premises. */
export function argumentText(a: ArgsMeArgument): string {
  return [a.conclusion, ...a.premises.map((p) => p.text)].join(" ");
}

/** The ranking model and its parameters. */
export interface ToucheModel {
  kind: "dirichlet" | "bm25";
  /** Dirichlet μ (default 2000, Lucene's). */
  mu?: number;
  /** BM25 k1 and b (default 1.2 and 0.75, Lucene's). */
  k1?: number;
  b?: number;
}

/** Collection statistics of the query terms only (what the scores need; memory stays small). */
export interface QueryTermStats {
  docs: number;
  tokens: number;
  cf: Map<string, number>;
  df: Map<string, number>;
}

/** Term counts of one document, for the query terms only, and its length. */
function countTerms(
  terms: readonly string[],
  wanted: ReadonlySet<string>,
): { tf: Map<string, number>; len: number } {
  const tf = new Map<string, number>();
  for (const t of terms) if (wanted.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, len: terms.length };
}

/**
 * A document's score for a query (terms with repeats, as Lucene's clauses). DirichletLM as
 * Lucene's `LMDirichletSimilarity`: per matching term `log(1 + tf/(μ·p)) + log(μ/(|d| + μ))` with
 * `p = (cf + 1)/(|C| + 1)`, floored at 0; BM25 as Lucene's `BM25Similarity`: `idf · tf/(tf + k1·(1 − b + b·|d|/avgdl))`,
 * `idf = ln(1 + (N − df + 0.5)/(df + 0.5))`. Document lengths are exact (Lucene stores a lossy byte).
 */
export function scoreDocument(
  query: readonly string[],
  doc: { tf: ReadonlyMap<string, number>; len: number },
  stats: QueryTermStats,
  m: ToucheModel,
): number {
  let s = 0;
  if (m.kind === "dirichlet") {
    const mu = m.mu ?? 2000;
    for (const t of query) {
      const tf = doc.tf.get(t);
      if (!tf) continue;
      const p = ((stats.cf.get(t) ?? 0) + 1) / (stats.tokens + 1);
      const v = Math.log(1 + tf / (mu * p)) + Math.log(mu / (doc.len + mu));
      if (v > 0) s += v;
    }
  } else {
    const k1 = m.k1 ?? 1.2;
    const b = m.b ?? 0.75;
    const avgdl = stats.tokens / stats.docs;
    for (const t of query) {
      const tf = doc.tf.get(t);
      if (!tf) continue;
      const df = stats.df.get(t) ?? 0;
      const idf = Math.log(1 + (stats.docs - df + 0.5) / (df + 0.5));
      s += (idf * tf) / (tf + k1 * (1 - b + (b * doc.len) / avgdl));
    }
  }
  return s;
}

/** The args.me files of a TIRA input folder (`*.json`), sorted. */
export async function corpusFiles(inputDir: string): Promise<string[]> {
  const names = await readdir(inputDir).catch(() => {
    throw new InputError(
      inputDir,
      {},
      "an input folder with args.me *.json files and topics.xml",
      "no such folder",
    );
  });
  return names
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(inputDir, f));
}

async function* allArguments(files: readonly string[]): AsyncIterable<ArgsMeArgument[]> {
  for (const f of files) yield* readArgsMe(f);
}

/** A bounded top list: the best `k` by score descending, ties by docno descending (trec_eval's order); a min-heap of the kept ones. */
class TopK {
  private readonly heap: { docno: string; score: number }[] = [];
  constructor(private readonly k: number) {}
  /** a ranks below b. */
  private static worse(a: { docno: string; score: number }, b: { docno: string; score: number }): boolean {
    return trecOrder(a, b) > 0;
  }
  add(docno: string, score: number): void {
    const h = this.heap;
    let x = { docno, score };
    if (h.length === this.k) {
      // Full: x must beat the least kept (a TopK(0) keeps nothing).
      const least = h[0];
      if (least === undefined || !TopK.worse(least, x)) return;
    }
    // A fresh copy: a string parsed out of a stream chunk can keep the whole chunk alive.
    x = { docno: Buffer.from(docno, "utf8").toString("utf8"), score };
    if (h.length === this.k) {
      h[0] = x;
      this.down(0);
      return;
    }
    h.push(x);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p];
      if (parent === undefined || !TopK.worse(x, parent)) break;
      h[i] = parent;
      h[p] = x;
      i = p;
    }
  }
  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const here = h[i];
      if (here === undefined) return;
      let m = i;
      let least = here;
      const l = h[2 * i + 1];
      if (l !== undefined && TopK.worse(l, least)) {
        m = 2 * i + 1;
        least = l;
      }
      const r = h[2 * i + 2];
      if (r !== undefined && TopK.worse(r, least)) {
        m = 2 * i + 2;
        least = r;
      }
      if (m === i) return;
      h[i] = least;
      h[m] = here;
      i = m;
    }
  }
  sorted(): { docno: string; score: number }[] {
    return [...this.heap].sort((a, b) => (TopK.worse(a, b) ? 1 : TopK.worse(b, a) ? -1 : 0));
  }
}

/**
 * Retrieves up to `depth` arguments per topic: pass 1 streams the corpus for the query terms'
 * statistics, pass 2 streams it again, scoring every argument that shares a term with a topic.
 * Memory holds the statistics of the query terms and the top lists, never the corpus. Lines
 * come out per topic in topic order, scores non-increasing, ties by docno descending (the
 * order trec_eval evaluates in, so the cut at `depth` is the one it sees).
 */
export async function retrieveTouche(
  files: readonly string[],
  topics: readonly ToucheTopic[],
  m: ToucheModel,
  o: { depth?: number; tag?: string; onPass?: (pass: 1 | 2, docs: number) => void } = {},
): Promise<RunEntry[]> {
  // Each topic with its query terms and its top list (filled in pass 2).
  const searches = topics.map((topic) => ({
    topic,
    terms: toucheTerms(topic.title),
    top: new TopK(o.depth ?? 1000),
  }));
  const wanted = new Set(searches.flatMap((s) => s.terms));
  const stats: QueryTermStats = { docs: 0, tokens: 0, cf: new Map(), df: new Map() };
  for await (const batch of allArguments(files)) {
    for (const a of batch) {
      const { tf, len } = countTerms(toucheTerms(argumentText(a)), wanted);
      stats.docs++;
      stats.tokens += len;
      for (const [t, n] of tf) {
        stats.cf.set(t, (stats.cf.get(t) ?? 0) + n);
        stats.df.set(t, (stats.df.get(t) ?? 0) + 1);
      }
    }
    o.onPass?.(1, stats.docs);
  }
  let seen = 0;
  for await (const batch of allArguments(files)) {
    for (const a of batch) {
      const doc = countTerms(toucheTerms(argumentText(a)), wanted);
      if (doc.tf.size === 0) continue;
      // A match scoring 0 is still a hit, as in Lucene.
      for (const { terms, top } of searches)
        if (terms.some((t) => doc.tf.has(t))) top.add(a.id, scoreDocument(terms, doc, stats, m));
    }
    seen += batch.length;
    o.onPass?.(2, seen);
  }
  const tag = o.tag ?? `convkit-${m.kind}`;
  return searches.flatMap(({ topic, top }) =>
    top.sorted().map((d, r) => ({
      qid: String(topic.number),
      q0: "Q0",
      docno: d.docno,
      rank: r + 1,
      score: d.score,
      tag,
    })),
  );
}
