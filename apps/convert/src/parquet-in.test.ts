// convert reads convkit's own Parquet tables back: gen-synthetic's Parquet converts to the bytes of
// its JSONL (and to the same Parquet); a table of no declared schema is one line, exit 2.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeParquet } from "@convkit/parquet";
import { runCli, tempDir, writeEvalFixture } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

describe("convert: Parquet in", () => {
  it("gen-synthetic's Parquet converts to its JSONL's bytes, and back to its Parquet's", () => {
    const dir = tempDir("convert-parquet-in-");
    writeEvalFixture(dir);
    const syn = join(dir, "syn");
    const g = runCli("gen-synthetic", [
      "--data",
      dir,
      "--splits",
      "dev",
      "--format",
      "jsonl,parquet",
      "--out",
      syn,
    ]);
    expect(g.code, g.stderr).toBe(0);
    const parquet = join(syn, "dev_synthetic.parquet");
    const jsonl = readFileSync(join(syn, "dev_synthetic.jsonl"));
    expect(jsonl.length).toBeGreaterThan(0);
    const r = runCli("convert", [parquet, "-o", join(dir, "back.jsonl")]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, "back.jsonl")).equals(jsonl)).toBe(true);
    const p = runCli("convert", ["--to", "parquet", parquet, "-o", join(dir, "back.parquet")]);
    expect(p.code, p.stderr).toBe(0);
    expect(readFileSync(join(dir, "back.parquet")).equals(readFileSync(parquet))).toBe(true);
  }, 60_000);

  it("a Parquet table of no declared schema: one line naming the file and its columns, exit 2", async () => {
    const dir = tempDir("convert-parquet-in-");
    const f = join(dir, "other.parquet");
    await writeParquet(
      f,
      {
        what: "x",
        columns: [
          { name: "a", type: "string" },
          { name: "n", type: "int64" },
        ],
      },
      [[{ a: "x", n: 1 }]],
    );
    const r = runCli("convert", [f, "-o", join(dir, "o.jsonl")]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^[^\n]*\n$/);
    expect(r.stderr).toContain(f);
    expect(r.stderr).toContain("columns a: string, n: int64");
    expect(r.stderr).toContain("Parquet tables");
  });
});
