// Parquet on every supported Node (issue 41). Each Parquet output is the same bytes on Node 24 and
// 26 as on the Node the suite runs on (CI's 20): Python's readers check this Node's outputs
// (parquet-python.shared.slow), so they read the same tables from each Node's. Parquet inputs give
// each Node the output the same lines give here (trec-eval, compare) and the original tool's
// (clariq-eval). The memory bound is measured on each Node itself (parquet-memory.slow).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collect, RANX_QRELS_SCHEMA, RUN_ENTRY_SCHEMA, readQrels, readRun } from "@convkit/formats";
import { writeParquet } from "@convkit/parquet";
import {
  clariqDataWithDicts,
  OTHER_NODE_LINES,
  otherNode,
  REPO,
  requires,
  runCliAsync,
  SHARED,
  tempDir,
  withCliNode,
} from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { cases as outA, qulacFlavour } from "./parquet-cases/out-a.js";
import { cases as outB } from "./parquet-cases/out-b.js";

/** The outputs Python's readers check (parquet-python.shared.slow): the same list. */
const CASES = [...outA.filter((c) => !/train|Qulac's flavour/.test(c.name)), qulacFlavour(20), ...outB];

const digest = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** `convkit-APP ARGS…`'s stdout on Node `node`; it must succeed with nothing on stderr. */
async function stdoutOn(node: string, app: string, args: string[]): Promise<string> {
  const r = await withCliNode(node, () => runCliAsync(app, args));
  expect(r.stderr, `${app} ${args.join(" ")} on ${node}`).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
}

const nodes = () => OTHER_NODE_LINES.map((line) => ({ line, node: otherNode(line) }));

requires("shared", "other-nodes").describe("Parquet on Node 24 and 26 as on this Node", () => {
  for (const c of CASES)
    it(`${c.name}: the same bytes`, async () => {
      const here = await c.make(tempDir("parquet-nodes-"));
      const want = digest(here.parquet);
      for (const { line, node } of nodes()) {
        const there = await withCliNode(node, () => c.make(tempDir("parquet-nodes-")));
        expect(digest(there.parquet), `Node ${line}: ${there.parquet}`).toBe(want);
      }
    });

  it("trec-eval and compare on Parquet runs and qrels: what their lines give here", async () => {
    const dir = tempDir("parquet-nodes-in-");
    const fixtures = join(REPO, "test/fixtures/trec_eval");
    const [qrels, run] = [join(fixtures, "qrels.test"), join(fixtures, "results.test")];
    const entries = await collect(readRun(run, { trecEval: true }));
    const flipped = entries.map((e) => ({ ...e, score: -e.score, tag: "flip" }));
    // Runs are named by their files: the same names as lines and as tables (read by content).
    mkdirSync(join(dir, "lines"));
    mkdirSync(join(dir, "tables"));
    const lines = { a: join(dir, "lines", "a"), b: join(dir, "lines", "b") };
    const tables = {
      q: join(dir, "tables", "qrels"),
      a: join(dir, "tables", "a"),
      b: join(dir, "tables", "b"),
    };
    writeFileSync(lines.a, readFileSync(run));
    writeFileSync(lines.b, flipped.map((e) => `${e.qid} Q0 ${e.docno} ${e.rank} ${e.score} flip\n`).join(""));
    await writeParquet(
      tables.q,
      RANX_QRELS_SCHEMA,
      [(await collect(readQrels(qrels))).map((q) => ({ q_id: q.qid, doc_id: q.docno, score: q.rel }))],
      { codec: "snappy" },
    );
    await writeParquet(tables.a, RUN_ENTRY_SCHEMA, [entries], { rowGroupRows: 1000 });
    await writeParquet(tables.b, RUN_ENTRY_SCHEMA, [flipped], { codec: "none" });
    const evalArgs = ["-m", "all_trec", "-q"];
    const compareArgs = ["-m", "map", "-m", "P.10", "--format", "json"];
    const trecEval = await stdoutOn(process.execPath, "trec-eval", [...evalArgs, qrels, lines.a]);
    const compare = await stdoutOn(process.execPath, "compare", [
      "--qrels",
      qrels,
      ...compareArgs,
      lines.a,
      lines.b,
    ]);
    expect(trecEval.split("\n").length).toBeGreaterThan(100);
    for (const { line, node } of nodes()) {
      expect(await stdoutOn(node, "trec-eval", [...evalArgs, tables.q, tables.a]), `Node ${line}`).toBe(
        trecEval,
      );
      expect(
        await stdoutOn(node, "compare", ["--qrels", tables.q, ...compareArgs, tables.a, tables.b]),
        `Node ${line}`,
      ).toBe(compare);
    }
  });

  it("clariq-eval on a Parquet run: the original tool's output (its golden)", async () => {
    const g = JSON.parse(
      readFileSync(
        join(SHARED, "golden", "clariq-eval", "expected", "question_relevance.dev.dev_bm25.json"),
        "utf8",
      ),
    ) as { command: string[]; run_file: string; stdout: string };
    const text = g.run_file.startsWith("data/")
      ? join(SHARED, g.run_file)
      : join(SHARED, "golden", "clariq-eval", g.run_file);
    const table = join(tempDir("parquet-nodes-clariq-"), "run.parquet");
    await writeParquet(table, RUN_ENTRY_SCHEMA, [await collect(readRun(text))]);
    const data = clariqDataWithDicts();
    const out = join(tempDir("parquet-nodes-clariq-"), "out.json");
    const args = [...g.command.slice(1), "--data_dir", data, "--run_file", table, "--out_file", out];
    for (const { line, node } of nodes())
      expect(await stdoutOn(node, "clariq-eval", args), `Node ${line}`).toBe(g.stdout);
  });
});
