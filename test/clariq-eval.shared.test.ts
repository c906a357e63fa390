// Every golden case of the original ClariQ evaluation tool: stdout byte for byte, out_file value for value.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { clariqDataWithDicts, requires, runCliAsync, SHARED, tempDir } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";

interface Golden {
  command: string[];
  run_file: string;
  exit_code: number;
  stdout: string;
  out_file?: Record<string, Record<string, number>>;
}

/** The golden cases, listed so that the tests are the same with or without shared/ (skipped and counted without it). */
const CASES = [
  "clarification_need.dev.cneed_0.json",
  "clarification_need.dev.cneed_1.json",
  "clarification_need.test.cneed_2.json",
  "document_relevance.dev.dev_BERT-ranker.json",
  "document_relevance.dev.dev_best_q.json",
  "document_relevance.dev.dev_bm25.json",
  "document_relevance.dev.dev_no_q.json",
  "document_relevance.dev.dev_worst_q.json",
  "document_relevance.dev.multi.dev_best_question_multi_turn.json.gz",
  "document_relevance.dev.multi.dev_bm25_multi_turn.json.gz",
  "document_relevance.dev.multi.multi_0.json.gz",
  "document_relevance.dev.qrank_0.json",
  "document_relevance.dev.qrank_1.json",
  "question_relevance.dev.dev_BERT-ranker.json",
  "question_relevance.dev.dev_BERT-reranker.json",
  "question_relevance.dev.dev_bm25.json",
  "question_relevance.dev.qrank_0.json",
  "question_relevance.dev.qrank_1.json",
  "question_relevance.test.qrank_2.json",
  "question_relevance.test.test_BERT-ranker.json",
  "question_relevance.test.test_BERT-reranker.json",
];

requires("shared").describe("ClariQ eval tool goldens (shared)", () => {
  const dir = join(SHARED, "golden", "clariq-eval", "expected");
  let data: string;
  beforeAll(() => {
    data = clariqDataWithDicts();
  });
  it("has the golden cases", () => {
    expect(readdirSync(dir).sort()).toEqual(CASES);
    expect(CASES.length).toBe(21);
  });
  for (const name of CASES) {
    it(name, async () => {
      const raw = readFileSync(join(dir, name));
      const g: Golden = JSON.parse((name.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8"));
      const run = g.run_file.startsWith("data/")
        ? join(SHARED, g.run_file)
        : join(SHARED, "golden", "clariq-eval", g.run_file);
      const out = join(tempDir(), "out.json");
      const r = await runCliAsync("clariq-eval", [
        ...g.command.slice(1),
        "--data_dir",
        data,
        "--run_file",
        run,
        "--out_file",
        out,
      ]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(g.exit_code);
      expect(r.stdout).toBe(g.stdout);
      if (g.out_file) expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(g.out_file);
      else expect(existsSync(out)).toBe(false);
    });
  }
});
