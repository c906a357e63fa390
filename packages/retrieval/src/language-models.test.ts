import { describe, expect, it } from "vitest";
import {
  bm25Scores,
  countQuery,
  dirichletScores,
  dirichletScoresFloat32,
  qulacQueryModel,
} from "./language-models.js";
import {
  bm25ScoresReference,
  dirichletScoresFloat32Reference,
  dirichletScoresReference,
} from "./language-models.reference.js";
import {
  collectionStats,
  formatCollectionStats,
  parseCollectionStats,
  rankingHead,
  TopicIndex,
  topDocuments,
} from "./topic-index.js";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

/** A random topic: documents over a Zipf-ish vocabulary, some of them duplicates (exact ties). */
function fixture(seed: number) {
  const r = rng(seed);
  const vocab = Array.from({ length: 60 }, (_, i) => `t${i}`);
  const word = () => vocab[Math.floor(vocab.length * r() ** 2)]!;
  const docs: string[][] = [];
  for (let d = 0; d < 120; d++) {
    if (d > 0 && r() < 0.1) docs.push([...docs[Math.floor(r() * d)]!]);
    else docs.push(Array.from({ length: 1 + Math.floor(r() * 80) }, word));
  }
  const docnos = docs.map((_, i) => `doc-${String(Math.floor(r() * 1e6)).padStart(6, "0")}-${i}`);
  const request = Array.from({ length: 1 + Math.floor(r() * 5) }, word);
  const qa = Array.from({ length: Math.floor(r() * 12) }, word);
  if (r() < 0.3) qa.push("unseen-term");
  return { index: new TopicIndex(docnos, docs), stats: collectionStats(docs), request, qa };
}

const fullOrder = (scores: Float64Array, docnos: readonly string[]) =>
  [...scores.keys()].sort(
    (a, b) => scores[b]! - scores[a]! || Buffer.compare(Buffer.from(docnos[b]!), Buffer.from(docnos[a]!)),
  );

describe("scoring with postings against the formula (random fixtures)", () => {
  for (let seed = 1; seed <= 25; seed++) {
    it(`seed ${seed}: query likelihood, Dirichlet LM, BM25 within 1e-12, identical rankings`, () => {
      const { index, stats, request, qa } = fixture(seed);
      const ql = qulacQueryModel(request, qa);
      const pairs = [
        [dirichletScores(index, ql, stats), dirichletScoresReference(index, ql, stats)],
        [
          dirichletScores(index, countQuery([...request, ...qa]), stats, 2000),
          dirichletScoresReference(index, countQuery([...request, ...qa]), stats, 2000),
        ],
        [bm25Scores(index, countQuery(request)), bm25ScoresReference(index, countQuery(request))],
      ] as const;
      for (const [fast, direct] of pairs) {
        for (let d = 0; d < fast.length; d++)
          expect(Math.abs(fast[d]! - direct[d]!)).toBeLessThanOrEqual(
            1e-12 * Math.max(1, Math.abs(direct[d]!)),
          );
        expect([...topDocuments(fast, index.tieRank, 100)]).toEqual(
          fullOrder(direct, index.docnos).slice(0, 100),
        );
      }
      expect(index.stats()).toEqual(stats);
      const q32 = qulacQueryModel(request, qa, true);
      const f32 = dirichletScoresFloat32(index, q32, stats);
      expect([...f32]).toEqual([...dirichletScoresFloat32Reference(index, q32, stats)]);
      for (const v of f32) expect(Math.fround(v)).toBe(v);
    });
  }
});

describe("Qulac's query model", () => {
  it("mixes the request and the question-answer halves", () => {
    const m = qulacQueryModel(["a", "b"], ["b", "c", "c", "d"]);
    expect(m.terms).toEqual(["a", "b", "c", "d"]);
    expect([...m.weights]).toEqual([0.25, 0.25 + 0.125, 0.25, 0.125]);
  });
  it("an empty question-answer side leaves the request alone", () => {
    const m = qulacQueryModel(["a", "a", "b"], []);
    expect([...m.weights]).toEqual([2 / 3, 1 / 3]);
  });
  it("hand-worked Dirichlet score", () => {
    const index = new TopicIndex(["d0", "d1"], [["a", "a", "b"], ["c"]]);
    const stats = {
      cf: new Map([
        ["a", 10],
        ["b", 5],
        ["c", 1],
      ]),
      totalLength: 100,
    };
    const q = qulacQueryModel(["a"], ["b"]); // q(a) = q(b) = 0.5
    const s = dirichletScores(index, q, stats, 10);
    expect(s[0]).toBeCloseTo(0.5 * Math.log((2 + 1) / 13) + 0.5 * Math.log((1 + 0.5) / 13), 14);
    expect(s[1]).toBeCloseTo(0.5 * Math.log(1 / 11) + 0.5 * Math.log(0.5 / 11), 14);
  });
});

/** 1,000 documents with random docnos, and score vectors that take every selection path. */
function rankingCases(seed: number) {
  const r = rng(seed);
  const n = 1000;
  const docnos = Array.from(
    { length: n },
    (_, i) => `d${String(Math.floor(r() * 1e4)).padStart(4, "0")}-${i}`,
  );
  const index = new TopicIndex(
    docnos,
    docnos.map(() => []),
  );
  const cases: Float64Array[] = [
    Float64Array.from({ length: n }, () => -10 - 5 * r()),
    Float64Array.from({ length: n }, () => Math.round(-10 - 5 * r())), // heavy ties
    Float64Array.from({ length: n }, (_, i) => (i === 7 ? 100 : -10 - 1e-9 * r())), // one outlier, the rest crowded
    new Float64Array(n).fill(-3), // all equal
  ];
  return { r, docnos, index, cases };
}

describe("topDocuments", () => {
  it("equals the full trec_eval sort on spread, clustered, tied and outlier scores (both selection paths)", () => {
    const { docnos, index, cases } = rankingCases(42);
    for (const s of cases)
      for (const k of [1, 20, 100, 1000, 2000])
        expect([...topDocuments(s, index.tieRank, k)]).toEqual(fullOrder(s, docnos).slice(0, k));
  });

  it("score descending, ties by docno descending, bytes not UTF-16 units", () => {
    const index = new TopicIndex(["a", "c", "b", "\u{1F600}", "\uFFFD"], [[], [], [], [], []]);
    const s = Float64Array.from([1, 1, 2, 1, 1]);
    expect([...topDocuments(s, index.tieRank, 10)].map((d) => index.docnos[d])).toEqual([
      "b",
      "\u{1F600}",
      "\uFFFD",
      "c",
      "a",
    ]);
    expect([...topDocuments(s, index.tieRank, 2)].map((d) => index.docnos[d])).toEqual(["b", "\u{1F600}"]);
  });
});

describe("TopicIndex from term numbers", () => {
  it("equals the index of the same documents as term lists", () => {
    const r = rng(5);
    const vocab = ["a", "b", "c", "d", "e", "f", "g", "unused"];
    const docs = Array.from({ length: 60 }, () =>
      Array.from({ length: Math.floor(r() * 30) }, () => vocab[Math.floor(r() * 7)]!),
    );
    const docnos = docs.map((_, i) => `d${i}`);
    const terms: string[] = [];
    const ids = docs.map((d) =>
      Int32Array.from(d, (t) => {
        if (!terms.includes(t)) terms.push(t);
        return terms.indexOf(t);
      }),
    );
    terms.push("unused"); // a term of the vocabulary in no document gets no postings
    const a = new TopicIndex(docnos, docs);
    const b = new TopicIndex(docnos, { ids, terms });
    expect([...b.postings].map(([t, p]) => [t, [...p]])).toEqual(
      [...a.postings].map(([t, p]) => [t, [...p]]),
    );
    expect([...b.lengths]).toEqual([...a.lengths]);
    expect(b.stats()).toEqual(a.stats());
  });
});

describe("rankingHead", () => {
  it("sorted part = the exact top; with the rest, a superset of the top depth ranked below it", () => {
    const { r, docnos, index, cases } = rankingCases(7);
    cases.push(Float64Array.from({ length: 30 }, () => -r()));
    for (const s of cases) {
      const full = fullOrder(s, docnos.slice(0, s.length));
      for (const [depth, sorted] of [
        [100, 20],
        [100, 1],
        [10, 20],
        [2000, 5],
      ] as const) {
        const h = rankingHead(s, index.tieRank.subarray(0, s.length), depth, sorted);
        const want = Math.min(sorted, depth, s.length);
        expect(h.sorted).toBeGreaterThanOrEqual(want);
        expect([...h.docs.subarray(0, h.sorted)]).toEqual(full.slice(0, h.sorted));
        const all = new Set(h.docs);
        for (const d of full.slice(0, Math.min(depth, s.length))) expect(all.has(d)).toBe(true);
        expect([...h.scores]).toEqual([...h.docs].map((d) => s[d]));
      }
    }
  });
});

describe("collection statistics file", () => {
  it("round-trips and names the line of a bad row", () => {
    const s = collectionStats([["x", "y", "x"], ["z"]]);
    expect(parseCollectionStats(formatCollectionStats(s))).toEqual(s);
    expect(() => parseCollectionStats("__total__\t4\nx\tmany\n", "s.tsv")).toThrow(
      "s.tsv:2: expected term<TAB>count",
    );
  });
});
