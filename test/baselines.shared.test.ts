// convkit-baselines end to end on the real ClariQ data, scored by convkit-clariq-eval.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { shared, tempDir } from "./helpers/shared.js";

describe("convkit-baselines on ../shared/data (shared)", () => {
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
});
