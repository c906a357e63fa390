// convkit-compare on ClariQ's real sample runs (shared): its JSON against SciPy 1.10 / statsmodels 0.13 run on the evaluator's own per-facet goldens.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { clariqDataWithDicts, REPO, requires, runCliAsync, shared } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";

const RUNS = ["dev_bm25", "dev_BERT-ranker", "dev_no_q", "dev_best_q", "dev_worst_q"];
const FIELDS = ["mean_a", "mean_b", "mean_diff", "t", "statistic", "p", "p_adjusted", "cohen_dz"] as const;

/** Equal within 1e-12 relative (null, integers and booleans: identical). */
function close(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== "number" || typeof actual !== "number") return actual === expected;
  if (expected === 0) return actual === 0;
  return Math.abs(actual - expected) / Math.abs(expected) <= 1e-12;
}

requires("shared").describe("convkit-compare on ClariQ's dev sample runs (shared)", () => {
  let data: string;
  beforeAll(() => {
    data = clariqDataWithDicts();
  });
  for (const test of ["t", "wilcoxon", "sign"]) {
    it(`--test ${test}: every pair and measure as SciPy and statsmodels compute them (Holm per measure)`, async () => {
      const expected = JSON.parse(
        readFileSync(join(REPO, "packages/compare/src/testdata", `clariq_compare_${test}.json`), "utf8"),
      );
      const r = await runCliAsync("compare", [
        "--clariq",
        "document_relevance",
        "--data_dir",
        data,
        "--test",
        test,
        "--format",
        "json",
        ...RUNS.map((run) => shared("data", "clariq", "sample_runs", run)),
      ]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const got = JSON.parse(r.stdout);
      expect(got.runs).toEqual(RUNS);
      expect(got.pairs).toHaveLength(expected.pairs.length);
      const misses: string[] = [];
      // SciPy's pairs keyed by measure and runs (the evaluator's goldens list the metrics in another order).
      type Pair = Record<string, unknown> & { measure: string; a: string; b: string; ci95: unknown[] };
      const key = (p: Pair) => `${p.measure}\t${p.a}\t${p.b}`;
      const byKey = new Map((expected.pairs as Pair[]).map((p) => [key(p), p]));
      (got.pairs as Pair[]).forEach((p, i) => {
        const e = byKey.get(key(p));
        if (!e) {
          misses.push(`${i}: no SciPy pair for ${key(p)}`);
          return;
        }
        for (const k of ["measure", "a", "b", "n", "wins", "ties", "losses", "reject"])
          if (p[k] !== e[k]) misses.push(`${key(p)} ${k}: ${p[k]} vs ${e[k]}`);
        for (const k of FIELDS) if (!close(p[k], e[k])) misses.push(`${key(p)} ${k}: ${p[k]} vs ${e[k]}`);
        p.ci95.forEach((x, j) => {
          if (!close(x, e.ci95[j])) misses.push(`${key(p)} ci95[${j}]: ${x} vs ${e.ci95[j]}`);
        });
      });
      expect(byKey.size).toBe(got.pairs.length);
      expect(misses.slice(0, 10)).toEqual([]);
      // Something is significant and something is not: the table is not trivially all one way.
      expect(got.pairs.some((p: { reject: boolean }) => p.reject)).toBe(true);
      expect(got.pairs.some((p: { reject: boolean }) => !p.reject)).toBe(true);
    });
  }
});
