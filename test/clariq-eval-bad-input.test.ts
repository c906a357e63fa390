// convkit-clariq-eval on broken input: one clear line, exit 2 (upstream would crash or guess).
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dumpPickle, type PyValue } from "@convkit/pickle";
import { REPO, runCli, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

function dataDir(evalDict?: PyValue): string {
  const dir = tempDir("clariq-bad-");
  copyFileSync(join(REPO, "data/clariq/dev.sample.tsv"), join(dir, "dev.tsv"));
  copyFileSync(join(REPO, "data/clariq/question_bank.sample.tsv"), join(dir, "question_bank.tsv"));
  if (evalDict !== undefined) {
    writeFileSync(join(dir, "single_turn_train_eval.pkl"), dumpPickle(evalDict));
    writeFileSync(join(dir, "multi_turn_dev_eval.pkl"), dumpPickle(evalDict));
  }
  return dir;
}

function run(dir: string, runText: string, ...flags: string[]) {
  const f = join(dir, "run");
  writeFileSync(f, runText);
  return { f, r: runCli("clariq-eval", ["--data_dir", dir, "--run_file", f, ...flags]) };
}

describe("convkit-clariq-eval bad input", () => {
  it("a run line with 5 columns", () => {
    const { f, r } = run(
      dataDir(),
      "301 0 Q90001 0 30 bm25\n301 0 Q90002 1 29\n",
      "--eval_task",
      "question_relevance",
    );
    expect([r.code, r.stderr]).toEqual([
      2,
      `${f}:2: expected 6 space-separated fields (id 0 question rank score run), found 5\n`,
    ]);
  });

  it("a non-numeric score", () => {
    const { f, r } = run(dataDir(), "301 0 Q90001 0 high bm25\n", "--eval_task", "question_relevance");
    expect([r.code, r.stderr]).toEqual([2, `${f}:1: expected a numeric score in field 5, found "high"\n`]);
  });

  it("an unknown topic", () => {
    const { f, r } = run(dataDir(), "301 2\n999 1\n", "--eval_task", "clarification_need");
    expect([r.code, r.stderr]).toEqual([
      2,
      `${f}:2: expected a topic of the topic file, found unknown topic 999\n`,
    ]);
  });

  it("an empty file", () => {
    const { f, r } = run(dataDir(), "", "--eval_task", "clarification_need");
    expect([r.code, r.stderr]).toEqual([2, `${f}:1: expected at least one run line, found an empty file\n`]);
  });

  it("a pickle of the wrong shape (single- and multi-turn)", () => {
    const bad = new Map<PyValue, PyValue>([
      ["NDCG1", new Map<PyValue, PyValue>([["F9001", new Map<PyValue, PyValue>([["Q90001", 0.5]])]])],
    ]);
    const dir = dataDir(bad);
    const single = run(dir, "301 0 Q90001 0 30 bm25\n", "--eval_task", "document_relevance").r;
    expect(single.code).toBe(2);
    expect(single.stderr).toBe(
      `${join(dir, "single_turn_train_eval.pkl")}: expected a dict at ["NDCG1"]["F9001"]["Q90001"], found float\n`,
    );
    const multi = run(
      dir,
      '9001 0 "do you want to know when it is open" 0 5 x\n',
      "--eval_task",
      "document_relevance",
      "--multi_turn",
    ).r;
    expect(multi.code).toBe(2);
    expect(multi.stderr.trim().split("\n").length).toBe(1);
    expect(multi.stderr).toContain("multi_turn_dev_eval.pkl");
  });

  it("an eval dict without the split's facets, or without metrics, is one line, exit 2 (issue 39)", () => {
    const topic = (dir: string) => join(dir, "dev.tsv");
    const dict = (dir: string) => join(dir, "single_turn_train_eval.pkl");
    const minOnly = new Map<PyValue, PyValue>([
      [
        "MIN",
        new Map<PyValue, PyValue>([
          ["with_answer", 0.1],
          ["no_answer", 0.1],
        ]),
      ],
    ]);
    const otherFacets = new Map<PyValue, PyValue>([
      ["MRR100", new Map<PyValue, PyValue>([["F9001", minOnly]])],
      ["P1", new Map<PyValue, PyValue>([["F0001", minOnly]])],
    ]);
    let dir = dataDir(otherFacets);
    // Upstream: a StatisticsError traceback; convkit was a RangeError stack, exit 1.
    let r = run(dir, "301 0 Q90001 0 30 bm25\n", "--eval_task", "document_relevance").r;
    expect([r.code, r.stderr]).toEqual([
      2,
      `${dict(dir)}: expected entries for the facets of ${topic(dir)} (F9001, F9002), found none under P1\n`,
    ]);
    // Upstream and convkit printed nothing and exited 0.
    dir = dataDir(new Map());
    r = run(dir, "301 0 Q90001 0 30 bm25\n", "--eval_task", "document_relevance").r;
    expect([r.code, r.stderr]).toEqual([
      2,
      `${dict(dir)}: expected a metric with entries for the facets of ${topic(dir)} (F9001, F9002), found an empty dict\n`,
    ]);
    r = run(
      dir,
      '9001 0 "do you want to know when it is open" 0 5 x\n',
      "--eval_task",
      "document_relevance",
      "--multi_turn",
    ).r;
    expect([r.code, r.stderr]).toEqual([
      2,
      `${join(dir, "multi_turn_dev_eval.pkl")}: expected an eval dict with at least one metric, found an empty dict\n`,
    ]);
    // The leaderboard line needs its four metrics (upstream: KeyError; convkit printed "nan").
    dir = dataDir(new Map([["MRR100", new Map<PyValue, PyValue>([["F9001", minOnly]])]]));
    r = run(dir, "301 0 Q90001 0 30 bm25\n", "--eval_task", "document_relevance", "--leaderboard").r;
    expect([r.code, r.stderr, r.stdout]).toEqual([
      2,
      `${dict(dir)}: expected the leaderboard's metrics MRR100, P1, NDCG3, NDCG5, found no P1, NDCG3, NDCG5\n`,
      "",
    ]);
  });

  it("a missing eval dict names the file and the forms looked for", () => {
    const dir = dataDir();
    const { r } = run(dir, "301 0 Q90001 0 30 bm25\n", "--eval_task", "document_relevance");
    expect([r.code, r.stderr]).toEqual([
      2,
      `${join(dir, "single_turn_train_eval.pkl")}: expected the eval dict (also looked for .tar.gz and split .tar.gz.aa), found no such file\n`,
    ]);
  });

  it("wrong flags exit 2 with argparse-like usage; --help exits 0", () => {
    expect(runCli("clariq-eval", ["--eval_task", "nope", "--run_file", "x"]).code).toBe(2);
    expect(runCli("clariq-eval", ["--run_file", "x"]).stderr).toContain("--eval_task is required");
    const h = runCli("clariq-eval", ["--help"]);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain("--experiment_type EXPERIMENT_TYPE");
  });
});
