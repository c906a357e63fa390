import { python, requires } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { formatTrecEval, parseMeasures, trecEval } from "./evaluate.js";
import { judgeRanking, NONPOOL, type Scored, UNJUDGED } from "./judged-ranking.js";
import { log2Int } from "./log2.js";
import { averagePrecision, ndcgAt, precisionAt, recallAt, reciprocalRank, rPrecision } from "./measures.js";

const run = (...docs: [string, number][]): Scored[] => docs.map(([docno, score]) => ({ docno, score }));

describe("trec_eval semantics, hand-worked", () => {
  it("orders by score descending, ties by docno descending (strcmp)", () => {
    const r = judgeRanking(
      run(["a", 1], ["c", 1], ["b", 2], ["B", 1]),
      new Map([
        ["a", 1],
        ["c", 0],
        ["b", 0],
        ["B", 2],
      ]),
    );
    // b(2) first; then the tie at 1: c, a, B (strcmp descending: 'c' > 'a' > 'B').
    expect([...r.grades]).toEqual([0, 0, 1, 2]);
    expect(reciprocalRank(r)).toBe(1 / 3);
  });

  it("negative grades are judged-unjudged: never relevant, no gain, not in the ideal; unjudged docs are nonpool", () => {
    const q = new Map([
      ["x", -2],
      ["y", 3],
      ["z", 1],
    ]);
    const r = judgeRanking(run(["x", 3], ["w", 2], ["y", 1]), q);
    expect([...r.grades]).toEqual([UNJUDGED, NONPOOL, 3]);
    expect(r.numRel).toBe(2);
    expect(r.numRelRet).toBe(1);
    expect(precisionAt(r, 3)).toBe(1 / 3);
    // DCG@3 = 3/log2(4) = 1.5; IDCG@3 = 3/1 + 1/log2(3).
    expect(ndcgAt(r, 3)).toBe(1.5 / (3 + 1 / Math.log2(3)));
  });

  it("P@k divides by k even when the run is shorter; recall and AP divide by all relevant", () => {
    const q = new Map([
      ["a", 1],
      ["b", 1],
      ["c", 1],
      ["d", 0],
    ]);
    const r = judgeRanking(run(["a", 2], ["d", 1]), q);
    expect(precisionAt(r, 10)).toBe(0.1);
    expect(recallAt(r, 10)).toBe(1 / 3);
    expect(averagePrecision(r)).toBe(1 / 3);
    expect(rPrecision(r)).toBe(1 / 3);
  });

  it("a topic without relevant documents scores 0 everywhere (IDCG 0 → nDCG 0)", () => {
    const r = judgeRanking(run(["a", 1]), new Map([["a", 0]]));
    expect([ndcgAt(r, 5), averagePrecision(r), recallAt(r, 5), reciprocalRank(r)]).toEqual([0, 0, 0, 0]);
  });

  it("-l changes what counts as relevant for binary measures only", () => {
    const q = new Map([
      ["a", 1],
      ["b", 2],
    ]);
    const r = judgeRanking(run(["a", 2], ["b", 1]), q, { relevanceLevel: 2 });
    expect(precisionAt(r, 1, 2)).toBe(0);
    expect(reciprocalRank(r, 2)).toBe(0.5);
    expect(r.numRel).toBe(1);
  });

  it("duplicate documents in a topic are an error, as trec_eval's form_res_rels", () => {
    expect(() => judgeRanking(run(["a", 1], ["a", 2]), new Map(), { file: "r.run", qid: "7" })).toThrow(
      "r.run: expected each document once per topic (topic 7), found duplicate docs a",
    );
  });

  it("averages over evaluated topics; -c over every qrels topic; topics without qrels are ignored; trec_eval's measure order, not the command line's", () => {
    const qrels = new Map([
      ["1", new Map([["a", 1]])],
      ["2", new Map([["b", 1]])],
    ]);
    const runs = new Map([
      ["1", run(["a", 1])],
      ["3", run(["z", 1])],
    ]);
    const specs = parseMeasures(["P.1", "num_q"]);
    expect(trecEval(runs, qrels, specs).summary.map((v) => [v.name, v.value])).toEqual([
      ["num_q", 1],
      ["P_1", 1],
    ]);
    expect(trecEval(runs, qrels, specs, { allTopics: true }).summary.map((v) => [v.name, v.value])).toEqual([
      ["num_q", 2],
      ["P_1", 0.5],
    ]);
  });

  it("prints trec_eval's layout", () => {
    const qrels = new Map([["10", new Map([["a", 1]])]]);
    const out = formatTrecEval(
      trecEval(new Map([["10", run(["a", 1], ["b", 0.5])]]), qrels, parseMeasures(["num_ret", "P.5"])),
      { perTopic: true, runid: "bm25" },
    );
    // runid is printed only when asked for (it is in the default set), as trec_eval does.
    expect(out).toBe(
      "num_ret               \t10\t2\nP_5                   \t10\t0.2000\nnum_ret               \tall\t2\nP_5                   \tall\t0.2000\n",
    );
    const withRunid = formatTrecEval(
      trecEval(new Map([["10", run(["a", 1])]]), qrels, parseMeasures(["P.5", "runid"])),
      { runid: "bm25" },
    );
    expect(withRunid).toBe("runid                 \tall\tbm25\nP_5                   \tall\t0.2000\n");
  });

  it("merges cutoffs of a measure named twice", () => {
    expect(parseMeasures(["P.5", "P.1,5", "map"])).toEqual([
      { name: "map" },
      { name: "P", cutoffs: [1, 5], paramText: "1,5" },
    ]);
  });
});

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

describe("metric properties on random runs", () => {
  const r = rng(3);
  for (let t = 0; t < 200; t++) {
    const docs = Array.from({ length: 1 + Math.floor(r() * 60) }, (_, i) => `d${i}`);
    const qrels = new Map(
      docs.filter(() => r() < 0.6).map((d) => [d, Math.floor(r() * 7) - 2] as [string, number]),
    );
    const ranked = judgeRanking(
      docs.map((d) => ({ docno: d, score: Math.floor(r() * 5) })),
      qrels,
    );
    it(`random topic ${t}: bounds and monotonicity`, () => {
      for (const k of [1, 3, 5, 10, 20]) {
        for (const v of [precisionAt(ranked, k), recallAt(ranked, k), ndcgAt(ranked, k)]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1 + 1e-12);
        }
        expect(recallAt(ranked, k)).toBeLessThanOrEqual(recallAt(ranked, k * 2));
      }
      expect(averagePrecision(ranked)).toBeLessThanOrEqual(1);
      // The ideal ordering of the judged documents scores nDCG 1 whenever there is a relevant one.
      const ideal = [...qrels].sort((a, b) => b[1] - a[1]).map(([d], i) => ({ docno: d, score: 1000 - i }));
      const best = judgeRanking(ideal, qrels);
      const anyRel = [...qrels.values()].some((g) => g > 0);
      for (const k of [1, 5, 20]) expect(ndcgAt(best, k)).toBe(anyRel ? 1 : 0);
    });
  }
});

requires("python3").describe("log2 as glibc computes it (python3's math.log2)", () => {
  it("equals math.log2 for every integer 1..100001", () => {
    const py = JSON.parse(
      python("import math,json\nprint(json.dumps([math.log2(i) for i in range(1,100002)]))"),
    );
    const bad: number[] = [];
    for (let i = 1; i <= 100001; i++) if (log2Int(i) !== py[i - 1]) bad.push(i);
    expect(bad).toEqual([]);
  });
});

describe("ndcgAtCutoffs", () => {
  it("equals ndcgAt at every cutoff, bit for bit, on random judged rankings", async () => {
    const { ndcgAt, ndcgAtCutoffs } = await import("./measures.js");
    let s = 17;
    const rnd = () => {
      s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
      return s / 2 ** 32;
    };
    const cutoffs = [1, 3, 5, 10, 20, 100];
    for (let t = 0; t < 300; t++) {
      const n = Math.floor(rnd() * 40);
      const grades = Int32Array.from({ length: n }, () => Math.floor(rnd() * 7) - 2);
      const relLevels = Array.from({ length: Math.floor(rnd() * 5) }, () => Math.floor(rnd() * 4));
      const r = { grades, relLevels, numRel: 0, numRelRet: 0 };
      expect(ndcgAtCutoffs(r, cutoffs)).toEqual(cutoffs.map((k) => ndcgAt(r, k)));
    }
  });
});
