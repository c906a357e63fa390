// `-` for stdin on the real data (needs ../shared): the other CLIs that take an input path, and
// the formats the data/ fixtures do not cover (pickles, a pickle in tar.gz). Each stdin route
// (plain, gzip, bzip2) gives the file route's stdout.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expectStdinLikeFile, requires, shared, tempDir } from "@convkit/test-helpers";
import { it } from "vitest";

requires("shared").describe("stdin on the real data (shared)", () => {
  it("convkit-clariq-eval: --run_file -", async () => {
    await expectStdinLikeFile(
      "clariq-eval",
      (input) => [
        "--eval_task",
        "question_relevance",
        "--data_dir",
        shared("data/clariq"),
        "--run_file",
        input,
      ],
      shared("data/clariq/sample_runs/dev_bm25"),
    );
  });

  it("convkit-ikat convert: the run on stdin", async () => {
    await expectStdinLikeFile(
      "ikat",
      (input) => ["convert", input],
      shared("data/ikat/run_validation/2024_sample_run.json"),
    );
  });

  it("convkit-convert: an eval-dict pickle in a tar.gz, as ClariQ ships them", async () => {
    const dir = tempDir();
    execFileSync("tar", [
      "-czf",
      join(dir, "eval.pkl.tar.gz"),
      "-C",
      shared("golden/clariq-eval/eval_dicts"),
      "single_turn_train_eval.pkl",
    ]);
    // Piped as it is (compressing a .tar.gz again is no case a user has).
    await expectStdinLikeFile("convert", (input) => [input, "-o", "-"], join(dir, "eval.pkl.tar.gz"), [
      ["plain", (b) => b],
    ]);
  });

  it.each([
    "golden/clariq-eval/eval_dicts/single_turn_train_eval.pkl",
    "data/clariq/multi_turn_human_generated_data.tsv",
    "data/qulac/qulac.json",
  ])("convkit-convert: %s", async (file) => {
    await expectStdinLikeFile("convert", (input) => [input, "-o", "-"], join(shared(file)));
  });
});
