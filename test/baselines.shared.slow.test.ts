// convkit-baselines on the real ClariQ data (shared), the runs over all 15,345 multi-turn contexts: 10-25 s each on a busy 2-core machine.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { scanEvalDict } from "@convkit/formats";
import { clariqDataWithDicts, requires, runCli, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

requires("shared").describe("convkit-baselines multi-turn on ../shared/data (shared, slow)", () => {
  it("multi-turn BM25 with 2 threads writes the same bytes as with 1", () => {
    const dir = tempDir();
    const args = (t: string) => [
      "multi-turn",
      "--data",
      shared("data", "clariq"),
      "--qulac",
      shared("data", "qulac", "qulac.json"),
      "--threads",
      t,
      "-o",
      join(dir, `run${t}`),
    ];
    for (const t of ["1", "2"]) expect(runCli("baselines", args(t)).code).toBe(0);
    const one = readFileSync(join(dir, "run1"));
    expect(one.toString().trim().split("\n").length).toBe(15345);
    expect(readFileSync(join(dir, "run2"))).toEqual(one);
  }, 240_000);

  it("multi-turn: every context scores its dict's MAX (best) and MIN (worst) for the metric optimized", async () => {
    const data = clariqDataWithDicts();
    const dict = join(data, "multi_turn_dev_eval.pkl.tar.gz");
    const max = new Map<string, number>();
    const min = new Map<string, number>();
    await scanEvalDict(dict, (m, c, q, _na, wa) => {
      if (m === "NDCG5" && q === "MAX") max.set(String(c), wa);
      if (m === "NDCG5" && q === "MIN") min.set(String(c), wa);
    });
    for (const [kind, expected] of [
      ["best", max],
      ["worst", min],
    ] as const) {
      const run = join(tempDir(), kind);
      const r = runCli("baselines", [
        "oracle",
        "--multi_turn",
        "--kind",
        kind,
        "--metric",
        "NDCG5",
        "--eval_dict",
        dict,
        "--data",
        data,
        "-o",
        run,
      ]);
      expect(r.code, r.stderr).toBe(0);
      const out = join(tempDir(), "out.json");
      const e = runCli("clariq-eval", [
        "--eval_task",
        "document_relevance",
        "--multi_turn",
        "--data_dir",
        data,
        "--run_file",
        run,
        "--out_file",
        out,
      ]);
      expect(e.code, e.stderr).toBe(0);
      const per: Record<string, number> = JSON.parse(readFileSync(out, "utf8")).NDCG5;
      expect(Object.keys(per).length).toBe(expected.size);
      for (const [c, v] of expected) expect(per[c], `context ${c}`).toBe(v);
    }
  }, 240_000);
});
