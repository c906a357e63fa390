import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseJsonText } from "@convkit/json";
import { requires, shared } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import type { FormatName } from "./detect.js";
import { readAny } from "./read-any.js";

/** The format every file of ../shared/data must be recognized as, by content. */
function expectedFormat(rel: string): FormatName | "json" | undefined {
  const name = rel.split("/").at(-1)!;
  if (name === "LICENSE" || name === "README.md") return undefined;
  if (name.endsWith(".eval")) return "json";
  if (["train.tsv", "dev.tsv", "test_with_labels.tsv"].includes(name)) return "clariq-topics";
  if (name === "test.tsv") return "clariq-test-topics";
  if (name === "question_bank.tsv") return "question-bank";
  if (name === "multi_turn_human_generated_data.tsv") return "human-multi-turn";
  if (name.endsWith(".qrel")) return "qrels";
  if (name.endsWith("multi_turn")) return "multi-turn-run";
  if (rel.includes("sample_runs/")) return "run";
  if (name === "qulac.json") return "qulac-json";
  if (name.endsWith("_topics.json")) return "ikat-topics";
  if (name.includes("sample_run")) return "ikat-run";
  if (name === "sample_hashes.tsv") return "passage-hashes";
  if (name.endsWith("psg_text.jsonl")) return undefined; // official passage texts: generic JSONL (tested elsewhere)
  throw new Error(`no expectation for ${rel}`);
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) =>
    statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)],
  );
}

/**
 * Every file of ../shared/data, listed here so that the tests are the same whether or not shared/ is
 * present (without it they are skipped and counted); the first test checks the folder holds exactly these.
 */
const FILES = [
  "README.md",
  "clariq/dev.qrel",
  "clariq/dev.tsv",
  "clariq/multi_turn_human_generated_data.tsv",
  "clariq/question_bank.tsv",
  "clariq/sample_runs/dev_BERT-ranker",
  "clariq/sample_runs/dev_BERT-reranker",
  "clariq/sample_runs/dev_best_q",
  "clariq/sample_runs/dev_best_q.eval",
  "clariq/sample_runs/dev_best_question_multi_turn",
  "clariq/sample_runs/dev_bm25",
  "clariq/sample_runs/dev_bm25.eval",
  "clariq/sample_runs/dev_bm25_multi_turn",
  "clariq/sample_runs/dev_bm25_question_relevance.eval",
  "clariq/sample_runs/dev_no_q",
  "clariq/sample_runs/dev_no_q.eval",
  "clariq/sample_runs/dev_worst_q",
  "clariq/sample_runs/dev_worst_q.eval",
  "clariq/sample_runs/test_BERT-ranker",
  "clariq/sample_runs/test_BERT-reranker",
  "clariq/sample_runs/test_no_q",
  "clariq/test.qrel",
  "clariq/test.tsv",
  "clariq/test_with_labels.tsv",
  "clariq/train.tsv",
  "ikat/2023_test_topics.json",
  "ikat/2023_train_topics.json",
  "ikat/2023_train_topics_psg_text.jsonl",
  "ikat/2024_test_topics.json",
  "ikat/2025_test_topics.json",
  "ikat/LICENSE",
  "ikat/run_validation/2023_sample_run.json",
  "ikat/run_validation/2023_sample_run_invalid_scores.json",
  "ikat/run_validation/2023_sample_run_missing_ptkb_fields.json",
  "ikat/run_validation/2023_sample_run_no_ptkb.json",
  "ikat/run_validation/2023_sample_run_renamed_fields.json",
  "ikat/run_validation/2024_sample_run.json",
  "ikat/run_validation/2024_sample_run_invalid_scores.json",
  "ikat/run_validation/2024_sample_run_missing_ptkb_fields.json",
  "ikat/run_validation/2024_sample_run_no_ptkb.json",
  "ikat/run_validation/2024_sample_run_renamed_fields.json",
  "ikat/run_validation/sample_hashes.tsv",
  "qulac/LICENSE",
  "qulac/qulac.json",
];

requires("shared").describe("every file of ../shared/data (shared)", () => {
  it("../shared/data holds exactly the files listed here", () => {
    const root = shared("data");
    expect(
      files(root)
        .map((p) => relative(root, p))
        .sort(),
    ).toEqual(FILES);
  });
  for (const rel of FILES) {
    const expected = expectedFormat(rel);
    if (expected === undefined) continue;
    it(`${rel} is read as ${expected}`, async () => {
      const path = shared("data", rel);
      if (expected === "json") {
        const v = parseJsonText(path, readFileSync(path, "utf8")) as Record<string, Record<string, number>>;
        expect(Object.keys(v).length).toBeGreaterThan(0);
        return;
      }
      const { format, batches } = await readAny(path);
      expect(format).toBe(expected);
      let n = 0;
      for await (const b of batches) n += b.length;
      expect(n).toBeGreaterThan(0);
    });
  }
});
