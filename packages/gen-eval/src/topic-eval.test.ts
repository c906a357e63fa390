import { rankingHead, topDocuments } from "@convkit/retrieval";
import { ndcgAt, precisionAt, reciprocalRank } from "@convkit/trec-eval";
import { describe, expect, it } from "vitest";
import { DICT_METRICS, evaluateTopic, qaTerms, rankingMetrics, type TopicTask } from "./topic-eval.js";

const metric = (name: string) => DICT_METRICS.findIndex(([m]) => m === name);

describe("evaluateTopic, worked by hand", () => {
  // d0 = [a x], d1 = [b x], d2 = [a c c]; |C| = 7, cf: a 2, b 1, c 2, x 2; mu = 1.
  // Q00001 (request `a` alone): log((1+2/7)/3) for d0 > log((1+2/7)/4) for d2 > log((2/7)/3) for d1.
  // Q2 no_answer (q(a) = q(b) = 0.5): d1 −1.658 > d0 −1.946 > d2 −2.234.
  // Q2 with_answer (answer `c c c`: q(a) .5, q(b) .125, q(c) .375): d2 −1.194 > d0 −1.686 > d1 −2.178.
  const task: TopicTask = {
    topic_id: 1,
    request: ["a"],
    docnos: ["d0", "d1", "d2"],
    docTerms: [
      ["a", "x"],
      ["b", "x"],
      ["a", "c", "c"],
    ],
    qrels: {
      F1: [
        ["d2", 2],
        ["d1", 0],
      ],
      F2: [
        ["d1", 0],
        ["d0", -2],
      ],
    },
    contexts: [
      {
        key: 10,
        facet: "F1",
        history: [],
        candidates: [
          { question_id: "Q00001", question: [], answer: [] },
          { question_id: "Q2", question: ["b"], answer: ["c", "c", "c"] },
        ],
      },
      {
        key: 11,
        facet: "F2",
        history: [],
        candidates: [{ question_id: "Q00001", question: [], answer: [] }],
      },
    ],
    ranking: { model: "ql", mu: 1 },
  };
  const r = evaluateTopic(task);

  it("ranks both variants and takes MAX and MIN per variant", () => {
    const mrr = r[metric("MRR100")]!;
    expect(mrr.length).toBe(1); // F2 has no relevant document: left out
    const [key, values] = mrr[0]!;
    expect(key).toBe(10);
    expect(values).toEqual([
      ["Q00001", [1 / 2, 1 / 2]],
      ["Q2", [1 / 3, 1]],
      ["MAX", [1 / 2, 1]],
      ["MIN", [1 / 3, 1 / 2]],
    ]);
    const p1 = r[metric("P1")]![0]![1];
    expect(p1.find((v) => v[0] === "Q2")![1]).toEqual([0, 1]);
    // nDCG@3 of Q00001: d2 (grade 2) at rank 2 → (2/log2 3) / 2.
    const ndcg3 = r[metric("NDCG3")]![0]![1];
    expect(ndcg3[0]![1][0]).toBeCloseTo(1 / Math.log2(3), 15);
  });

  it("the QA side: history turns, then the question, then (with_answer) the answer", () => {
    const c = { question_id: "Q9", question: ["q"], answer: ["ans"] };
    expect(qaTerms([["h1", "a1"], ["h2"]], c, false)).toEqual(["h1", "a1", "h2", "q"]);
    expect(qaTerms([["h1", "a1"]], c, true)).toEqual(["h1", "a1", "q", "ans"]);
  });

  it("float32 and bm25 give valid dicts over the same contexts", () => {
    for (const ranking of [{ model: "ql" as const, mu: 1, float32: true }, { model: "bm25" as const }]) {
      const x = evaluateTopic({ ...task, ranking });
      expect(x[metric("MRR100")]![0]![1].map((v) => v[0])).toEqual(["Q00001", "Q2", "MAX", "MIN"]);
    }
    // float32 keeps this ranking: same values as the float64 run.
    expect(evaluateTopic({ ...task, ranking: { model: "ql", mu: 1, float32: true } })).toEqual(r);
  });
});

describe("rankingMetrics on a ranking head", () => {
  it("equals the metrics of the fully sorted ranking, MRR@100 past the sorted part included", () => {
    let seed = 99;
    const rnd = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const n = 400;
    const tieRank = Int32Array.from({ length: n }, (_, i) => (i * 7) % n); // a permutation (7 ∤ 400)
    let deep = 0;
    for (let trial = 0; trial < 200; trial++) {
      const scores = Float64Array.from({ length: n }, () => Math.round(-1000 * rnd()) / 10); // ties too
      const grades = Int32Array.from({ length: n }, () => (rnd() < 0.01 ? 1 + Math.floor(rnd() * 3) : -1));
      const relLevels = [0, 0, 0, 0];
      for (const g of grades) if (g > 0) relLevels[g]!++;
      const numRel = relLevels[1]! + relLevels[2]! + relLevels[3]!;
      const j = { grades, relLevels, numRel };
      const full = topDocuments(scores, tieRank, 100);
      const r = { grades: Int32Array.from(full, (d) => grades[d]!), relLevels, numRel, numRelRet: 0 };
      const want = DICT_METRICS.map(([, kind, k]) =>
        kind === "ndcg" ? ndcgAt(r, k) : kind === "p" ? precisionAt(r, k) : reciprocalRank(r, 1, k),
      );
      const got = rankingMetrics(rankingHead(scores, tieRank, 100, 20), tieRank, j);
      expect([...got]).toEqual(want);
      const rr = want[DICT_METRICS.length - 1]!;
      if (rr > 0 && rr < 1 / 20) deep++;
    }
    expect(deep).toBeGreaterThan(10); // the first relevant document past rank 20 was exercised
  });
});
