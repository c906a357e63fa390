import { numpyArgsort } from "@convkit/pycompat";
import { describe, expect, it } from "vitest";
import { Bm25Okapi } from "./bm25.js";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

describe("BM25Okapi", () => {
  it("computes rank_bm25's idf with the epsilon floor and its scores", () => {
    const bm = new Bm25Okapi([["a", "b"], ["a", "c", "c"], ["a"]]);
    // idf(a) = log(0.5) - log(3.5) < 0 → epsilon * mean idf; idf(b) = idf(c) = log(2.5) - log(1.5).
    const idfBC = Math.log(2.5) - Math.log(1.5);
    const mean = (Math.log(0.5) - Math.log(3.5) + 2 * idfBC) / 3;
    const s = bm.scores(["c"]);
    const avgdl = 2;
    expect(s[1]).toBe(idfBC * ((2 * 2.5) / (2 + 1.5 * (1 - 0.75 + (0.75 * 3) / avgdl))));
    expect([s[0], s[2]]).toEqual([0, 0]);
    expect(bm.averageIdf).toBe(mean);
    expect(bm.scores(["a"])[2]).toBe(0.25 * mean * ((1 * 2.5) / (1 + 1.5 * (1 - 0.75 + (0.75 * 1) / avgdl))));
  });

  it("topN equals numpy's argsort reversed, ties included, on random corpora", () => {
    const r = rng(5);
    for (let t = 0; t < 60; t++) {
      const vocab = ["x", "y", "z", "w", "v"].slice(0, 2 + (t % 4));
      const corpus = Array.from({ length: 20 + t * 7 }, () =>
        Array.from({ length: 1 + Math.floor(r() * 4) }, () => vocab[Math.floor(r() * vocab.length)]!),
      );
      const bm = new Bm25Okapi(corpus);
      const q = [vocab[0]!, vocab[vocab.length - 1]!];
      const order = numpyArgsort(bm.scores(q));
      const expected = [...order].reverse().slice(0, 5);
      expect(bm.topN(q, 5), `corpus ${t}`).toEqual(expected);
    }
  });
});
