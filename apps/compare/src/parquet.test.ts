// convkit-compare --format parquet: the pairs of --format json (ci95 as two columns) as a table;
// --values-out: the per-topic values compared, as the trec_eval -q files it read hold them.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { REPO, runCli, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { expectCase } from "../../../test/parquet-cases/check.js";
import { cases } from "../../../test/parquet-cases/out-b.js";

const FIX = join(REPO, "test", "fixtures", "trec_eval");

describe("compare --format parquet", () => {
  for (const c of cases.filter((x) => x.name.startsWith("compare ")))
    it(`${c.name}: the Parquet rows equal the expected ones`, async () => {
      expect(await expectCase(c)).toBeGreaterThan(1);
    }, 30_000);

  it("-o FILE.parquet with another --format is a usage error, nothing written", () => {
    const dir = tempDir();
    const args = ["--qrels", join(FIX, "qrels.test"), join(FIX, "results.test"), join(FIX, "results.trunc")];
    const r = runCli("compare", [...args, "--format", "csv", "-o", join(dir, "pairs.parquet")]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split("\n")[0]).toMatch(/names a Parquet file: add --format parquet/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("--values-out onto the file -o writes is a usage error, nothing written", () => {
    const dir = tempDir();
    const out = join(dir, "pairs.parquet");
    const args = ["--qrels", join(FIX, "qrels.test"), join(FIX, "results.test"), join(FIX, "results.trunc")];
    const r = runCli("compare", [...args, "--format", "parquet", "-o", out, "--values-out", out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split("\n")[0]).toMatch(/--values-out .*: give a file of its own/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
