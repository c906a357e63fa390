// Every Parquet output convkit writes, read back by Python's readers as a user would (pyarrow,
// pandas, polars, DuckDB, Hugging Face datasets; no schema given), equals the JSONL output of the
// same command row for row, field for field, type for type; and the README's "From Python"
// snippets, run as they stand, open convkit's real gen-synthetic output.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import {
  cliBin,
  expectParquetEqualsJsonl,
  type PythonParquetReader,
  REPO,
  requires,
  runReadmePythonSnippets,
  SHARED,
  tempDir,
} from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { schemaTypes } from "./parquet-cases/check.js";
import { cases as outA } from "./parquet-cases/out-a.js";
import { cases as outB } from "./parquet-cases/out-b.js";

/**
 * The train split (744,869 rows) is opened by every reader through the README's snippets below;
 * its row-for-row check, and that of Qulac's hist dict (922,416 rows), runs with the two fastest
 * readers (the five take minutes each on CI's 2 cores); dev's (182,435 rows, the same table as
 * train) and every other output's with all five.
 */
const FAST: readonly PythonParquetReader[] = ["pyarrow", "polars"];

requires("shared", "python-parquet").describe("Parquet outputs read by Python's readers", () => {
  for (const c of [...outA, ...outB])
    it(c.name, async () => {
      const { parquet, jsonl } = await c.make(tempDir("parquet-python-"));
      const checks = await expectParquetEqualsJsonl(parquet, jsonl, schemaTypes(c.schema), {
        readers: /train|Qulac's flavour/.test(c.name) ? FAST : undefined,
      });
      expect(checks.length).toBeGreaterThan(0);
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
