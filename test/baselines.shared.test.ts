// convkit-baselines end to end on the real ClariQ data, scored by convkit-clariq-eval.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { clariqDataWithDicts, requires, runCli, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

requires("shared").describe("convkit-baselines on ../shared/data (shared)", () => {
  it("single-turn BM25: the official run's Recall@5/10/20 to the last digit", () => {
    const out = join(tempDir(), "run");
    const r = runCli("baselines", ["single-turn", "--data", shared("data", "clariq"), "-o", out]);
    expect(r.code, r.stderr).toBe(0);
    const e = runCli("clariq-eval", [
      "--eval_task",
      "question_relevance",
      "--data_dir",
      shared("data", "clariq"),
      "--run_file",
      out,
    ]);
    expect(e.stdout.split("\n").slice(0, 3)).toEqual([
      "Recall5: 0.3245570421150917",
      "Recall10: 0.5638042646208281",
      "Recall20: 0.6674997108155003",
    ]);
  });

  it("no-question and clarification-need runs in the formats the evaluator reads", () => {
    const dir = tempDir();
    expect(
      runCli("baselines", ["no-question", "--data", shared("data", "clariq"), "-o", join(dir, "noq")]).code,
    ).toBe(0);
    expect(readFileSync(join(dir, "noq"), "utf8").split("\n")[0]).toBe("101 0 Q00001 1 1 no_question");
    const c = runCli("baselines", [
      "clarification-need",
      "--data",
      shared("data", "clariq"),
      "-o",
      join(dir, "cn"),
    ]);
    expect(c.code).toBe(0);
    expect(c.stderr).toMatch(/^majority label 2: Precision /);
    const e = runCli("clariq-eval", [
      "--eval_task",
      "clarification_need",
      "--data_dir",
      shared("data", "clariq"),
      "--run_file",
      join(dir, "cn"),
    ]);
    expect(e.stdout).toBe("Precision:  0.1764\nRecall:  0.42\nF1: 0.24845070422535212\n");
  });

  it("clarification-need bm25-centroid: a learned model that beats the majority label on dev", () => {
    const out = join(tempDir(), "cn");
    const c = runCli("baselines", [
      "clarification-need",
      "--model",
      "bm25-centroid",
      "--data",
      shared("data", "clariq"),
      "-o",
      out,
    ]);
    expect(c.code, c.stderr).toBe(0);
    const e = runCli("clariq-eval", [
      "--eval_task",
      "clarification_need",
      "--data_dir",
      shared("data", "clariq"),
      "--run_file",
      out,
    ]);
    const f1 = Number(/F1: (\S+)/.exec(e.stdout)![1]);
    expect(f1).toBeGreaterThan(0.24845070422535212);
    expect(e.stdout).toBe("Precision:  0.4098095238095238\nRecall:  0.36\nF1: 0.3487034741002704\n");
  });
});

requires("shared").describe(
  "BestQuestion / WorstQuestion oracles from the golden eval dicts (shared)",
  () => {
    it("single-turn: best beats the published oracle run and every baseline, worst scores below NoQuestion", () => {
      const data = clariqDataWithDicts();
      const mrr = (run: string) => {
        const e = runCli("clariq-eval", [
          "--eval_task",
          "document_relevance",
          "--data_dir",
          data,
          "--run_file",
          run,
        ]);
        expect(e.code, e.stderr).toBe(0);
        return Number(/MRR100: (\S+)/.exec(e.stdout)![1]);
      };
      const dict = join(data, "single_turn_train_eval.pkl");
      const runs: Record<string, string> = {};
      for (const kind of ["best", "worst"]) {
        runs[kind] = join(tempDir(), kind);
        const r = runCli("baselines", [
          "oracle",
          "--kind",
          kind,
          "--eval_dict",
          dict,
          "--data",
          data,
          "-o",
          runs[kind]!,
        ]);
        expect(r.code, r.stderr).toBe(0);
      }
      expect(readFileSync(runs.best!, "utf8").trim().split("\n").length).toBe(50);
      const best = mrr(runs.best!);
      // The published oracle (dev_best_q) was chosen on another version of the dicts: 0.46669416542113534.
      expect(best).toBeGreaterThan(0.46669416542113534);
      for (const other of ["dev_bm25", "dev_no_q", "dev_BERT-ranker", "dev_worst_q"])
        expect(best).toBeGreaterThan(mrr(shared("data", "clariq", "sample_runs", other)));
      expect(mrr(runs.worst!)).toBeLessThan(mrr(shared("data", "clariq", "sample_runs", "dev_no_q")));
    });
  },
);
