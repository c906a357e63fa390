import { describe, expect, it } from "vitest";
import { scoreDocument, toucheTerms } from "./retrieve.js";

describe("Touché analyzer and scores", () => {
  it("lowercases, splits on non letters/digits, drops Lucene's stopwords, stems", () => {
    expect(toucheTerms("Should TEACHERS get tenure? It's the 2nd e-cigarette")).toEqual([
      "should",
      "teacher",
      "get",
      "tenur",
      "s",
      "2nd",
      "e",
      "cigarett",
    ]);
  });
  const stats = { docs: 4, tokens: 40, cf: new Map([["tenur", 3]]), df: new Map([["tenur", 2]]) };
  const doc = { tf: new Map([["tenur", 2]]), len: 10 };
  it("DirichletLM as Lucene's: log(1 + tf/(mu p)) + log(mu/(|d| + mu)), p = (cf + 1)/(|C| + 1), floored at 0", () => {
    const p = 4 / 41;
    expect(scoreDocument(["tenur"], doc, stats, { kind: "dirichlet", mu: 5 })).toBeCloseTo(
      Math.log(1 + 2 / (5 * p)) + Math.log(5 / 15),
      14,
    );
    // With mu 2000 the length part outweighs the match: the term's score is floored at 0.
    expect(
      scoreDocument(["tenur"], { tf: new Map([["tenur", 1]]), len: 500 }, stats, { kind: "dirichlet" }),
    ).toBe(0);
    // A repeated query term counts twice, a term the document lacks not at all.
    expect(scoreDocument(["tenur", "tenur", "x"], doc, stats, { kind: "dirichlet", mu: 5 })).toBeCloseTo(
      2 * (Math.log(1 + 2 / (5 * p)) + Math.log(5 / 15)),
      14,
    );
  });
  it("BM25 as Lucene's: idf · tf/(tf + k1(1 − b + b·|d|/avgdl))", () => {
    const idf = Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5));
    expect(scoreDocument(["tenur"], doc, stats, { kind: "bm25" })).toBeCloseTo(
      (idf * 2) / (2 + 1.2 * (1 - 0.75 + (0.75 * 10) / 10)),
      14,
    );
  });
});
