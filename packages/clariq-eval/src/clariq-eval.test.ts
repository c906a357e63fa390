import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { weightedPrf } from "./clarification-need.js";
import { topQuestions } from "./document-relevance.js";
import { evaluateQuestionRelevance } from "./question-relevance.js";
import { readRankedRun } from "./run-table.js";

const line = (id: number, item: string, score: number, n = 0) => ({ line: n, id, item, score });

describe("the upstream tool's quirks, hand-worked", () => {
  it("weighted P/R/F1: labels are the union, 0/0 is 0, weights are true counts", () => {
    // true: 1 1 2 3; pred: 1 2 2 0 → labels 0..3; P = [0, 1, 0.5, 0], R = [0, 0.5, 1, 0], support = [0, 2, 1, 1].
    const r = weightedPrf([1, 1, 2, 3], [1, 2, 2, 0]);
    expect(r.precision).toBe((1 * 2 + 0.5 * 1) / 4);
    expect(r.recall).toBe((0.5 * 2 + 1 * 1) / 4);
    expect(r.f1).toBe((((2 * 1 * 0.5) / 1.5) * 2) / 4 + (((2 * 0.5 * 1) / 1.5) * 1) / 4);
  });

  it("question relevance drops lines that tie on (topic, score), keeping the first in file order", () => {
    const run = [line(1, "Q1", 3), line(1, "Q2", 3), line(1, "Q3", 2), line(2, "Q9", 1)];
    const out = evaluateQuestionRelevance(
      new Map([
        [1, new Set(["Q2", "Q3"])],
        [3, new Set(["Q1"])],
      ]),
      run,
    );
    // Q2 is dropped (same score as Q1), so only Q3 of the relevant set is found; topic 3 has no run → 0.
    expect(out.get("Recall5")).toEqual(
      new Map([
        [1, 0.5],
        [3, 0],
      ]),
    );
  });

  it("document relevance picks the last line of numpy's quicksort order, ties included", () => {
    const run = [line(5, "QA", 2), line(5, "QB", 9), line(5, "QC", 9), line(6, "QD", 1)];
    const top = topQuestions(run);
    // argsort([2, 9, 9, 1]) = [3, 0, 1, 2] (insertion sort for short arrays): QC is last among the 9s.
    expect(top).toEqual(
      new Map([
        [5, "QC"],
        [6, "QD"],
      ]),
    );
  });
});

describe("reading runs", () => {
  it("plain runs split directly read as the general parser reads them (CRLF forces that one)", async () => {
    const d = tempDir();
    const lines = [
      '1 0 "a question, with commas" 1 5.5 tag',
      "2 0 Q00001 2 -1e-3 tag",
      '3 0 "" 3 0 tag',
      "",
      "4 0 NA 4 1 tag",
      '5 0 "null" 5 .5 tag',
      "6 0  6 2 tag",
    ];
    const lf = join(d, "lf.run");
    const crlf = join(d, "crlf.run");
    writeFileSync(lf, `${lines.join("\n")}\n`);
    writeFileSync(crlf, `${lines.join("\r\n")}\r\n`);
    const a = await readRankedRun(lf);
    expect(a.map((r) => [r.line, r.id, r.item, r.score])).toEqual([
      [1, 1, "a question, with commas", 5.5],
      [2, 2, "Q00001", -1e-3],
      [3, 3, "", 0],
      [5, 4, "", 1],
      [6, 5, "", 0.5],
      [7, 6, "", 2],
    ]);
    expect(await readRankedRun(crlf)).toEqual(a);
    // Quotes inside a field: the general parser, as pandas reads them.
    const q = join(d, "quotes.run");
    writeFileSync(q, '7 0 "say ""hi""" 1 3 tag\n8 0 "x"y 2 1 tag\n');
    expect((await readRankedRun(q)).map((r) => r.item)).toEqual(['say "hi"', "xy"]);
  });
});
