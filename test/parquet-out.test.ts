// Parquet outputs of gen-synthetic, segment run and gen-eval: the same rows as the command's JSONL
// (or JSON dict), field for field and type for type, and the same bytes for any thread count.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  EVAL_ENTRY_SCHEMA,
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  PASSAGE_SCHEMA,
  QULAC_HIST_RECORD_SCHEMA,
  SYNTHETIC_RECORD_SCHEMA,
} from "@convkit/formats";
import { evalFixtureArgs, REPO, runCli, tempDir, writeEvalFixture } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { expectParquetRows, jsonlRows } from "./parquet-cases/check.js";
import { documents, evalDictRows } from "./parquet-cases/out-a.js";

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

/** `segment run INPUT -o OUT ARGS…`, checked to succeed. */
function segment(input: string, out: string, args: string[]) {
  const r = runCli("segment", ["run", input, "-o", out, ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe("segment run --format parquet", () => {
  it("holds the JSONL's passages (url null where the JSONL has none), the same bytes for 1 and 2 threads", async () => {
    const root = tempDir("seg-parquet-");
    const input = join(root, "a.jsonl");
    // About 1.1 MB: three 512 KiB units, so that 2 threads share them.
    writeFileSync(input, documents(1200));
    const [a, b] = ["1", "2"].map((threads) => {
      const out = join(root, `out-${threads}`);
      segment(input, out, ["--format", "jsonl,parquet", "--threads", threads]);
      return out;
    }) as [string, string];
    expect(same(join(a, "a.parquet"), join(b, "a.parquet"))).toBe(true);
    const rows = jsonlRows(join(a, "a.jsonl"));
    expect(rows.length).toBeGreaterThan(2000);
    expect(rows.filter((r) => r.url === undefined).length).toBeGreaterThan(0);
    await expectParquetRows(join(a, "a.parquet"), PASSAGE_SCHEMA, rows);
  });

  it("msmarco with --url-title: the same rows as its JSONL (no url column values)", async () => {
    const root = tempDir("seg-parquet-");
    const input = join(root, "a.jsonl");
    writeFileSync(input, documents(300));
    const out = join(root, "out");
    segment(input, out, ["--format", "jsonl,parquet", "--preset", "msmarco", "--url-title"]);
    const rows = jsonlRows(join(out, "a.jsonl"));
    expect(rows.every((r) => r.url === undefined)).toBe(true);
    await expectParquetRows(join(out, "a.parquet"), PASSAGE_SCHEMA, rows);
  });

  /** An input segmented to JSONL into `out`, and a fresh Parquet-only run of it into `fresh`. */
  function resumable() {
    const root = tempDir("seg-parquet-");
    const input = join(root, "a.jsonl");
    writeFileSync(input, documents(200));
    const out = join(root, "out");
    segment(input, out, []);
    const fresh = join(root, "fresh");
    segment(input, fresh, ["--format", "parquet"]);
    const jsonl = join(out, "a.jsonl");
    return { input, out, fresh, jsonl, mtime: statSync(jsonl, { bigint: true }).mtimeNs };
  }

  it("resume: Parquet asked for later is written alone (the JSONL untouched), a fresh run's bytes", () => {
    const { input, out, fresh, jsonl, mtime } = resumable();
    const r = segment(input, out, ["--format", "jsonl,parquet"]);
    expect(r.stderr).toMatch(/a\.parquet not written yet: writing it/);
    expect(statSync(jsonl, { bigint: true }).mtimeNs).toBe(mtime);
    expect(same(join(out, "a.parquet"), join(fresh, "a.parquet"))).toBe(true);
    // Current now, whatever --compression a run that writes no Parquet is given.
    expect(segment(input, out, ["--format", "jsonl,parquet"]).stderr).toMatch(/^0 files \(1 already done\)/m);
    expect(segment(input, out, ["--compression", "none"]).stderr).toMatch(/^0 files \(1 already done\)/m);
  });

  // Four runs of segment (spaCy's senter each): past the quick default on a loaded machine.
  it("resume: another --compression rewrites the Parquet file alone, and stays on record", {
    timeout: 120_000,
  }, () => {
    const { input, out, fresh, jsonl, mtime } = resumable();
    segment(input, out, ["--format", "jsonl,parquet"]);
    const redo = segment(input, out, ["--format", "jsonl,parquet", "--compression", "snappy"]);
    expect(redo.stderr).toMatch(/a\.parquet compressed "zstd", now "snappy": writing it$/m);
    expect(statSync(jsonl, { bigint: true }).mtimeNs).toBe(mtime);
    expect(same(join(out, "a.parquet"), join(fresh, "a.parquet"))).toBe(false);
    // A JSONL-only run keeps the snappy file on record: asked for again with snappy, it is current.
    expect(segment(input, out, []).stderr).toMatch(/^0 files \(1 already done\)/m);
    expect(segment(input, out, ["--format", "parquet", "--compression", "snappy"]).stderr).toMatch(
      /^0 files \(1 already done\)/m,
    );
  });
});

describe("gen-eval --format parquet", () => {
  /** gen-eval on the generated fixture with `args`, writing pickle and Parquet under `prefix`. */
  function genEval(dir: string, prefix: string, args: string[]) {
    const r = runCli("gen-eval", [
      ...evalFixtureArgs(dir),
      "--format",
      "pickle,parquet",
      ...args,
      "-o",
      prefix,
    ]);
    expect(r.code, r.stderr).toBe(0);
  }

  it("is the eval dict (its pickle) as a long table, int contexts, the same bytes for 1 and 2 threads", async () => {
    const dir = tempDir("gen-eval-parquet-");
    writeEvalFixture(dir);
    const [a, b] = ["1", "2"].map((threads) => {
      const prefix = join(dir, `eval-${threads}`);
      genEval(dir, prefix, ["--threads", threads]);
      return prefix;
    }) as [string, string];
    expect(same(`${a}.parquet`, `${b}.parquet`)).toBe(true);
    const rows = await evalDictRows(`${a}.pkl.tar.gz`);
    expect(rows.every((r) => typeof r.context === "number")).toBe(true);
    expect(rows.filter((r) => r.aggregate).length).toBeGreaterThan(0);
    await expectParquetRows(`${a}.parquet`, MULTI_TURN_EVAL_ENTRY_SCHEMA, rows);
  });

  it("--single-turn: context the facet id string", async () => {
    const dir = tempDir("gen-eval-parquet-");
    writeEvalFixture(dir);
    const prefix = join(dir, "eval");
    genEval(dir, prefix, ["--single-turn"]);
    const rows = await evalDictRows(`${prefix}.pkl.tar.gz`);
    expect(rows.every((r) => typeof r.context === "string")).toBe(true);
    await expectParquetRows(`${prefix}.parquet`, EVAL_ENTRY_SCHEMA, rows);
  });
});
