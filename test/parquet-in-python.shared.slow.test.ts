// Parquet in (issue #41), from Python: runs and qrels as users bring them, written by pandas the
// way ranx saves them (`to_dataframe().to_parquet(path, index=False)`: q_id, doc_id, score) and by
// pyarrow in convkit's layout (zstd, small row groups), give what their TREC lines give.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { clariqDataWithDicts, REPO, requires, runCliAsync, shared, tempDir } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";

/** Writes `src` (TREC run or qrels lines) as Parquet: `ranx` with pandas as ranx does, `own` with pyarrow. */
const SCRIPT = `
import sys, pandas as pd, pyarrow as pa, pyarrow.parquet as pq
kind, layout, src, out = sys.argv[1:]
rows = [l.split() for l in open(src) if l.strip() and not l.startswith("#")]
if layout == "ranx":
    score = [float(r[4]) for r in rows] if kind == "run" else [int(r[3]) for r in rows]
    df = pd.DataFrame({"q_id": [r[0] for r in rows], "doc_id": [r[2] for r in rows], "score": score})
    df.to_parquet(out, index=False)
elif kind == "run":
    t = pa.table({"qid": [r[0] for r in rows], "q0": [r[1] for r in rows], "docno": [r[2] for r in rows],
                  "rank": pa.array([int(r[3]) for r in rows], pa.int64()), "score": [float(r[4]) for r in rows],
                  "tag": [r[5] for r in rows]})
    pq.write_table(t, out, compression="zstd", row_group_size=700)
else:
    t = pa.table({"qid": [r[0] for r in rows], "iter": [r[1] for r in rows], "docno": [r[2] for r in rows],
                  "rel": pa.array([int(r[3]) for r in rows], pa.int64())})
    pq.write_table(t, out, compression="zstd", row_group_size=700)
`;

function pyParquet(kind: "run" | "qrels", layout: "ranx" | "own", src: string, out: string): void {
  execFileSync("python3", ["-c", SCRIPT, kind, layout, src, out]);
}

async function cli(app: string, args: string[]): Promise<string> {
  const r = await runCliAsync(app, args);
  expect(r.stderr, `${app} ${args.join(" ")}`).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
}

requires("shared", "python-parquet").describe(
  "Parquet runs and qrels written by pandas and pyarrow (shared)",
  () => {
    let dir: string;
    beforeAll(() => {
      dir = tempDir("parquet-in-py-");
    });

    it("trec-eval -m all_trec -q: pandas' ranx tables and pyarrow's convkit tables as the lines (trec_eval's test files)", async () => {
      const qrels = join(REPO, "test/fixtures/trec_eval/qrels.test");
      const run = join(REPO, "test/fixtures/trec_eval/results.test");
      for (const layout of ["ranx", "own"] as const) {
        pyParquet("qrels", layout, qrels, join(dir, `${layout}-qrels.parquet`));
        pyParquet("run", layout, run, join(dir, `${layout}.parquet`));
      }
      const all = ["-m", "all_trec", "-q"];
      const text = await cli("trec-eval", [...all, qrels, run]);
      expect(await cli("trec-eval", [...all, join(dir, "own-qrels.parquet"), join(dir, "own.parquet")])).toBe(
        text,
      );
      expect(await cli("trec-eval", [...all, join(dir, "ranx-qrels.parquet"), run])).toBe(text);
      // A ranx run's tag is its file's stem: the lines it stands for carry "ranx".
      const retagged = join(dir, "ranx.txt");
      writeFileSync(
        retagged,
        readFileSync(run, "utf8")
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => `${l.trim().split(/\s+/).slice(0, 5).join(" ")} ranx\n`)
          .join(""),
      );
      const ranxText = await cli("trec-eval", [...all, qrels, retagged]);
      expect(ranxText).toMatch(/^runid\s+\tall\tranx$/m);
      expect(
        await cli("trec-eval", [...all, join(dir, "ranx-qrels.parquet"), join(dir, "ranx.parquet")]),
      ).toBe(ranxText);
    });

    it("clariq-eval: dev_bm25 written by pandas as ranx does gives the original tool's golden output", async () => {
      const data = clariqDataWithDicts();
      for (const task of ["question_relevance", "document_relevance"]) {
        const g = JSON.parse(
          gunzipOr(readFileSync(shared("golden", "clariq-eval", "expected", `${task}.dev.dev_bm25.json`))),
        ) as { command: string[]; stdout: string };
        const table = join(dir, `dev_bm25-${task}.parquet`);
        pyParquet("run", "ranx", shared("data", "clariq", "sample_runs", "dev_bm25"), table);
        const out = join(dir, "out.json");
        const stdout = await cli("clariq-eval", [
          ...g.command.slice(1),
          "--data_dir",
          data,
          "--run_file",
          table,
          "--out_file",
          out,
        ]);
        expect(stdout).toBe(g.stdout);
      }
    });
  },
);

function gunzipOr(b: Buffer): string {
  return (b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : b).toString("utf8");
}
