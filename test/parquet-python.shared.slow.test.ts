// Every Parquet output convkit writes, read back by Python's readers as a user would (pyarrow,
// pandas, polars, DuckDB, Hugging Face datasets; no schema given), equals the JSONL output of the
// same command row for row, field for field, type for type; and the README's "From Python"
// snippets, run as they stand, open convkit's real gen-synthetic output.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import {
  cliBin,
  expectParquetEqualsJsonl,
  REPO,
  requires,
  runReadmePythonSnippets,
  SHARED,
  tempDir,
} from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { schemaTypes } from "./parquet-cases/check.js";
import { cases as outA, qulacFlavour } from "./parquet-cases/out-a.js";
import { cases as outB } from "./parquet-cases/out-b.js";

/**
 * Each output with all five readers, row for row. The train split (744,869 rows) is the dev split's
 * table (182,435 rows, checked row for row here) made by the same code: every reader opens it
 * through the README's snippets below; its row-for-row check is convkit's own
 * (parquet-cases-out-a). Qulac's flavour is checked on its first 20 topics (all 198 give 922,416
 * rows: convkit's own check again reads them all); the five readers on the two full files took 2 of
 * CI's 30 minutes.
 */
const CASES = [...outA.filter((c) => !/train|Qulac's flavour/.test(c.name)), qulacFlavour(20), ...outB];

requires("shared", "python-parquet").describe("Parquet outputs read by Python's readers", () => {
  for (const c of CASES)
    it(c.name, async () => {
      const { parquet, jsonl } = await c.make(tempDir("parquet-python-"));
      const checks = await expectParquetEqualsJsonl(parquet, jsonl, schemaTypes(c.schema));
      expect(checks.length).toBe(5);
      for (const r of checks) expect(r.rows).toBeGreaterThan(0);
    });

  it("the README's From Python snippets open gen-synthetic's train set", async () => {
    const dir = tempDir("parquet-readme-");
    execFileSync(
      process.execPath,
      [
        cliBin("gen-synthetic"),
        ...["--data", join(SHARED, "data", "clariq"), "--qulac", join(SHARED, "data", "qulac", "qulac.json")],
        ...["--splits", "train", "--format", "parquet", "--out", dir],
      ],
      { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] },
    );
    const ran = await runReadmePythonSnippets("From Python", {
      "out/train_synthetic.parquet": { path: join(dir, "train_synthetic.parquet"), rows: 744869 },
    });
    expect(ran.length).toBe(4);
  });
});
