// Parquet runs and qrels of the wrong shape (issue #41): wrong columns, wrong types, a row group
// past the input limit. One line naming the file and what was expected, exit 2, nothing on stdout.
// (Files that lie about their sizes: packages/parquet/src/reader-lies.test.ts.)
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeParquet } from "@convkit/parquet";
import { REPO, runCli, tempDir } from "@convkit/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";

type Col = { name: string; type: "string" | "int64" | "double" };
const table = (columns: Col[]) => ({ what: "row", columns });
const S = (name: string): Col => ({ name, type: "string" });
const I = (name: string): Col => ({ name, type: "int64" });
const D = (name: string): Col => ({ name, type: "double" });

function row(columns: Col[], i: number): Record<string, unknown> {
  return Object.fromEntries(
    columns.map((c) => [
      c.name,
      c.type === "string" ? `${c.name}${i % 7}` : c.type === "int64" ? i % 3 : i / 10,
    ]),
  );
}

async function write(path: string, columns: Col[]): Promise<void> {
  await writeParquet(path, table(columns), [Array.from({ length: 50 }, (_, i) => row(columns, i))]);
}

function expectOneLine(app: string, args: string[], file: string, message: RegExp): void {
  const r = runCli(app, args);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^${file}(:row \\d+)?: `));
  expect(lines[0]).toMatch(message);
}

describe("Parquet runs and qrels of the wrong shape", () => {
  let dir: string;
  let qrels: string;
  let run: string;
  const p = (name: string) => join(dir, name);
  beforeAll(async () => {
    dir = tempDir("parquet-bad-");
    qrels = p("qrels");
    writeFileSync(qrels, "q1 0 d1 1\n");
    run = p("run");
    writeFileSync(run, "q1 Q0 d1 1 1.5 t\n");
    await write(p("xy.parquet"), [S("x"), I("y")]);
    await write(p("ranx-score-text.parquet"), [S("q_id"), S("doc_id"), S("score")]);
    await write(p("ranx-run.parquet"), [S("q_id"), S("doc_id"), D("score")]);
    await write(p("ranx-qid-int.parquet"), [I("q_id"), S("doc_id"), D("score")]);
    await write(p("own-rank-text.parquet"), [S("qid"), S("q0"), S("docno"), S("rank"), D("score"), S("tag")]);
    await write(p("own-no-tag.parquet"), [S("qid"), S("q0"), S("docno"), I("rank"), D("score")]);
    await write(p("need-text.parquet"), [I("topic_id"), S("label")]);
  });

  it("trec-eval: a table of neither layout names both", () => {
    expectOneLine(
      "trec-eval",
      [qrels, p("xy.parquet")],
      p("xy.parquet"),
      /expected a run as a table: columns qid, q0, docno, rank, score, tag \(convkit\) or q_id, doc_id, score \(ranx\), found columns x, y$/,
    );
    expectOneLine(
      "trec-eval",
      [p("xy.parquet"), run],
      p("xy.parquet"),
      /expected qrels as a table: columns qid, iter, docno, rel \(convkit\) or q_id, doc_id, score \(ranx\), found columns x, y$/,
    );
  });

  it("trec-eval: a column of the wrong type, or missing", () => {
    expectOneLine(
      "trec-eval",
      [qrels, p("ranx-score-text.parquet")],
      p("ranx-score-text.parquet"),
      /expected column score of type double, found string$/,
    );
    expectOneLine(
      "trec-eval",
      [qrels, p("ranx-qid-int.parquet")],
      p("ranx-qid-int.parquet"),
      /expected column q_id of type string, found int64$/,
    );
    expectOneLine(
      "trec-eval",
      [qrels, p("own-rank-text.parquet")],
      p("own-rank-text.parquet"),
      /expected column rank of type int64, found string$/,
    );
    expectOneLine(
      "trec-eval",
      [qrels, p("own-no-tag.parquet")],
      p("own-no-tag.parquet"),
      /expected a column tag \(string\) in run lines, found columns qid, q0, docno, rank, score$/,
    );
    // ranx qrels grades are int64: a run's float scores are not grades.
    expectOneLine(
      "trec-eval",
      [p("ranx-run.parquet"), run],
      p("ranx-run.parquet"),
      /expected column score of type int64, found double$/,
    );
  });

  it("trec-eval: a row group past --max-input-bytes", () => {
    expectOneLine(
      "trec-eval",
      ["--max-input-bytes", "200", qrels, p("ranx-run.parquet")],
      p("ranx-run.parquet"),
      /expected row groups of at most 25 rows \(raise with --max-input-bytes\), found one claiming 50$/,
    );
  });

  it("clariq-eval: a clarification-need table of the wrong types, a ranking table of neither layout", () => {
    const data = p("data");
    mkdirSync(data);
    copyFileSync(join(REPO, "data/clariq/dev.sample.tsv"), join(data, "dev.tsv"));
    expectOneLine(
      "clariq-eval",
      ["--eval_task", "clarification_need", "--data_dir", data, "--run_file", p("need-text.parquet")],
      p("need-text.parquet"),
      /expected column label of type int64, found string$/,
    );
    expectOneLine(
      "clariq-eval",
      ["--eval_task", "question_relevance", "--data_dir", data, "--run_file", p("xy.parquet")],
      p("xy.parquet"),
      /expected a run as a table/,
    );
  });
});
