import { readFileSync } from "node:fs";
import { collect, formatRunLine, quoteQuestion, readClariqRows, readQuestionBank } from "@convkit/formats";
import { planClariqSets, splitPlans } from "@convkit/gen-synthetic";
import { requires, shared } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { bankIndex, multiTurnBm25, singleTurnBm25 } from "./bm25-baselines.js";

requires("shared").describe("ClariQ BM25 baselines against the official dev runs (shared)", () => {
  it("single-turn: 1,335 of the official run's 1,508 lines, 44 of 50 topics identical", async () => {
    const bank = await collect(readQuestionBank(shared("data", "clariq", "question_bank.tsv")));
    const topics = new Map<number, string>();
    for (const r of await collect(readClariqRows(shared("data", "clariq", "dev.tsv"))))
      if (!topics.has(r.topic_id)) topics.set(r.topic_id, r.initial_request);
    const ours = singleTurnBm25(bank, topics).map(formatRunLine);
    const official = new Set(
      readFileSync(shared("data", "clariq", "sample_runs", "dev_bm25"), "utf8")
        .trim()
        .split("\n"),
    );
    expect(ours.filter((l) => official.has(l)).length).toBe(1335);
  });

  it("multi-turn over the synthetic dev contexts: the same question for 15,270 of 15,345 contexts", async () => {
    const bank = await collect(readQuestionBank(shared("data", "clariq", "question_bank.tsv")));
    const sets = await planClariqSets(shared("data", "clariq"), shared("data", "qulac", "qulac.json"));
    const run = multiTurnBm25(bank, splitPlans(sets, "dev"), sets.numbers, bankIndex(bank));
    expect(run.length).toBe(15345);
    const official = new Map<number, string>();
    const lines = new Set<string>();
    for (const l of readFileSync(shared("data", "clariq", "sample_runs", "dev_bm25_multi_turn"), "utf8")
      .trim()
      .split("\n")) {
      official.set(Number(l.split(" ")[0]), l.split('"')[1]!);
      lines.add(l);
    }
    expect(run.filter((r) => official.get(r.context_id) === r.question).length).toBe(15270);
    const same = run.filter((r) =>
      lines.has(`${r.context_id} 0 ${quoteQuestion(r.question)} 0 ${r.score} bm25_multi_turn`),
    ).length;
    expect(same).toBe(14934);
  });
});
