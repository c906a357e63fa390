// Parquet outputs of gen-synthetic, segment run and gen-eval: the same rows as the command's JSONL
// (or JSON dict), field for field and type for type, and the same bytes for any thread count.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  evalEntries,
  EVAL_ENTRY_SCHEMA,
  PASSAGE_SCHEMA,
  QULAC_HIST_RECORD_SCHEMA,
  SYNTHETIC_RECORD_SCHEMA,
  toEvalDict,
} from "@convkit/formats";
import { readPickleFile } from "@convkit/pickle";
import { evalFixtureArgs, REPO, runCli, tempDir, writeEvalFixture } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { expectParquetRows, jsonlRows } from "./parquet-cases/compare.js";
import { documents } from "./parquet-cases/out-a.js";

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

describe("segment run --format parquet", () => {
  it("holds the JSONL's passages (url null where the JSONL has none), the same bytes for 1 and 3 threads", async () => {
    const root = tempDir("seg-parquet-");
    const input = join(root, "a.jsonl");
    writeFileSync(input, documents(2500));
    for (const preset of [[], ["--preset", "msmarco", "--url-title"]]) {
      const outs = ["1", "3"].map((threads) => {
        const out = join(root, `out-${preset.length}-${threads}`);
        const r = runCli("segment", [
          "run",
          input,
          "-o",
          out,
          "--format",
          "jsonl,parquet",
          "--threads",
          threads,
          ...preset,
        ]);
        expect(r.code, r.stderr).toBe(0);
        return out;
      });
      const [a, b] = outs as [string, string];
      expect(same(join(a, "a.parquet"), join(b, "a.parquet"))).toBe(true);
      const rows = jsonlRows(join(a, "a.jsonl"));
      expect(rows.length).toBeGreaterThan(5000);
      if (preset.length === 0) expect(rows.filter((r) => r.url === undefined).length).toBeGreaterThan(0);
      await expectParquetRows(join(a, "a.parquet"), PASSAGE_SCHEMA, rows);
    }
  });

  it("resume: Parquet asked for later is written alone (the JSONL untouched), a fresh run's bytes; another --compression rewrites it alone", () => {
    const root = tempDir("seg-parquet-");
    const input = join(root, "a.jsonl");
    writeFileSync(input, documents(200));
    const out = join(root, "out");
    const run = (args: string[]) => runCli("segment", ["run", input, "-o", out, ...args]);
    expect(run([]).code).toBe(0);
    const jsonl = join(out, "a.jsonl");
    const before = statSync(jsonl, { bigint: true });
    const r = run(["--format", "jsonl,parquet"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/a\.parquet not written yet: writing it/);
    expect(statSync(jsonl, { bigint: true }).mtimeNs).toBe(before.mtimeNs);
    const fresh = join(root, "fresh");
    expect(runCli("segment", ["run", input, "-o", fresh, "--format", "parquet"]).code).toBe(0);
    expect(same(join(out, "a.parquet"), join(fresh, "a.parquet"))).toBe(true);
    // Current now, whatever --compression a run that writes no Parquet is given.
    expect(run(["--format", "jsonl,parquet"]).stderr).toMatch(/^0 files \(1 already done\)/m);
    expect(run(["--compression", "none"]).stderr).toMatch(/^0 files \(1 already done\)/m);
    const redo = run(["--format", "jsonl,parquet", "--compression", "snappy"]);
    expect(redo.code, redo.stderr).toBe(0);
    expect(redo.stderr).toMatch(/a\.parquet compressed "zstd", now "snappy": writing it$/m);
    expect(statSync(jsonl, { bigint: true }).mtimeNs).toBe(before.mtimeNs);
    expect(same(join(out, "a.parquet"), join(fresh, "a.parquet"))).toBe(false);
    // A JSONL-only run keeps the snappy file on record: asked for again with snappy, it is current.
    expect(run([]).stderr).toMatch(/^0 files \(1 already done\)/m);
    expect(run(["--format", "parquet", "--compression", "snappy"]).stderr).toMatch(
      /^0 files \(1 already done\)/m,
    );
  });
});

/**
 * ClariQ's eval dict (the pickle: its dicts keep their order, int context ids stay ints) as the
 * Parquet table's rows.
 */
async function evalDictRows(pklTarGz: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (const e of evalEntries(toEvalDict(pklTarGz, await readPickleFile(pklTarGz))))
    rows.push({ ...e, aggregate: e.question === "MAX" || e.question === "MIN" });
  return rows;
}

describe("gen-eval --format parquet", () => {
  it("is the eval dict (its pickle) as a long table (int contexts; facet ids with --single-turn), the same bytes for 1 and 2 threads", async () => {
    const dir = tempDir("gen-eval-parquet-");
    writeEvalFixture(dir);
    for (const [single, schema] of [
      [false, MULTI_TURN_EVAL_ENTRY_SCHEMA],
      [true, EVAL_ENTRY_SCHEMA],
    ] as const) {
      const prefixes = ["1", "2"].map((threads) => {
        const prefix = join(dir, `eval-${single}-${threads}`);
        const r = runCli("gen-eval", [
          ...evalFixtureArgs(dir),
          ...(single ? ["--single-turn"] : []),
          ...["--format", "pickle,parquet", "--threads", threads, "-o", prefix],
        ]);
        expect(r.code, r.stderr).toBe(0);
        return prefix;
      });
      const [a, b] = prefixes as [string, string];
      expect(same(`${a}.parquet`, `${b}.parquet`)).toBe(true);
      const rows = await evalDictRows(`${a}.pkl.tar.gz`);
      expect(rows.every((r) => typeof r.context === (single ? "string" : "number"))).toBe(true);
      expect(rows.filter((r) => r.aggregate).length).toBeGreaterThan(0);
      await expectParquetRows(`${a}.parquet`, schema, rows);
    }
  });
});
