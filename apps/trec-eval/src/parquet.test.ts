// convkit-trec-eval --format parquet: the values of its text output (trec_eval's test suite files)
// as a table measure, topic, value; text to stdout unchanged; a full disk one line, exit 1, no file.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, requires, runCli, smallDisk, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { expectCase } from "../../../test/parquet-cases/check.js";
import { cases } from "../../../test/parquet-cases/out-b.js";

const FIX = join(REPO, "test", "fixtures", "trec_eval");
const FILES = [join(FIX, "qrels.test"), join(FIX, "results.test")];

describe("trec-eval --format parquet equals its text output, parsed", () => {
  for (const c of cases.filter((x) => x.name.startsWith("trec-eval ")))
    it(c.name, async () => {
      expect(await expectCase(c)).toBeGreaterThan(0);
    }, 30_000);

  it("the text, to stdout or -o FILE, stays trec_eval's bytes (its golden out.test.aq)", () => {
    const golden = readFileSync(join(FIX, "out.test.aq"), "utf8");
    const r = runCli("trec-eval", ["-m", "all_trec", "-q", ...FILES]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(golden);
    const out = join(tempDir(), "q.txt");
    expect(runCli("trec-eval", ["-m", "all_trec", "-q", "-o", out, ...FILES]).code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(golden);
  });

  it("-o FILE.parquet without --format parquet is a usage error, nothing written", () => {
    const dir = tempDir();
    const r = runCli("trec-eval", ["-q", "-o", join(dir, "q.parquet"), ...FILES]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split("\n")[0]).toMatch(/names a Parquet file: add --format parquet/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

requires("tmpfs").describe("trec-eval --format parquet onto a full disk", () => {
  it("one line, exit 1, no file left", () => {
    const disk = smallDisk(64 * 1024, { full: true });
    try {
      const r = runCli("trec-eval", [
        "-q",
        "--format",
        "parquet",
        "-o",
        join(disk.dir, "q.parquet"),
        ...FILES,
      ]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^[^\n]*\n$/);
      expect(readdirSync(disk.dir)).toEqual(["filler"]);
    } finally {
      disk.unmount();
    }
  });
});
