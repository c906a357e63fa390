// Parquet outputs of gen-synthetic, segment run and gen-eval: the same rows as the command's JSONL
// (or JSON dict), field for field and type for type, and the same bytes for any thread count.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { QULAC_HIST_RECORD_SCHEMA, SYNTHETIC_RECORD_SCHEMA } from "@convkit/formats";
import { REPO, runCli, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { expectParquetRows, jsonlRows } from "./parquet-cases/compare.js";

const same = (a: string, b: string) => readFileSync(a).equals(readFileSync(b));

describe("gen-synthetic --format parquet", () => {
  it("writes the JSONL's records as Parquet, the same bytes for 1 and 2 threads", async () => {
    const dirs = [tempDir(), tempDir()];
    for (const [i, threads] of ["1", "2"].entries()) {
      const r = runCli("gen-synthetic", [
        ...["--data", join(REPO, "data/clariq"), "--format", "jsonl,parquet"],
        ...["--threads", threads, "--out", dirs[i]!],
      ]);
      expect(r.code, r.stderr).toBe(0);
    }
    const [a, b] = dirs as [string, string];
    expect(readdirSync(a).sort()).toEqual([
      "dev_synthetic.jsonl",
      "dev_synthetic.parquet",
      "train_synthetic.jsonl",
      "train_synthetic.parquet",
    ]);
    for (const split of ["dev", "train"]) {
      const p = join(a, `${split}_synthetic.parquet`);
      expect(same(p, join(b, `${split}_synthetic.parquet`)), split).toBe(true);
      await expectParquetRows(p, SYNTHETIC_RECORD_SCHEMA, jsonlRows(join(a, `${split}_synthetic.jsonl`)));
    }
  });

  it("--format parquet alone writes the same file, and snappy and none hold the same rows", async () => {
    const base = tempDir();
    expect(
      runCli("gen-synthetic", [
        "--data",
        join(REPO, "data/clariq"),
        "--format",
        "jsonl,parquet",
        "--out",
        base,
      ]).code,
    ).toBe(0);
    const rows = jsonlRows(join(base, "dev_synthetic.jsonl"));
    for (const codec of ["zstd", "snappy", "none"]) {
      const out = tempDir();
      const r = runCli("gen-synthetic", [
        ...["--data", join(REPO, "data/clariq"), "--splits", "dev", "--format", "parquet"],
        ...["--compression", codec, "--out", out],
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(out)).toEqual(["dev_synthetic.parquet"]);
      const p = join(out, "dev_synthetic.parquet");
      if (codec === "zstd") expect(same(p, join(base, "dev_synthetic.parquet"))).toBe(true);
      await expectParquetRows(p, SYNTHETIC_RECORD_SCHEMA, rows);
    }
  });

  it("Qulac's flavour: qulac_hist012_dict.parquet holds the JSONL's records", async () => {
    const out = tempDir();
    const r = runCli("gen-synthetic", [
      ...["--qulac", join(REPO, "data/qulac/qulac.sample.json"), "--format", "jsonl,parquet", "--out", out],
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rows = jsonlRows(join(out, "qulac_hist012_dict.jsonl"));
    expect(rows.length).toBeGreaterThan(0);
    await expectParquetRows(join(out, "qulac_hist012_dict.parquet"), QULAC_HIST_RECORD_SCHEMA, rows);
  });
});
