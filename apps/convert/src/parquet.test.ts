// convkit-convert --to parquet on the repo's fixtures: rows equal to the JSONL's, names under
// --out-dir, stdout, the same bytes each run, codecs; bad flags and undeclared fields are one line,
// exit 2, nothing written; a full disk one line, exit 1, nothing left.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openParquet } from "@convkit/parquet";
import { REPO, requires, runCli, runCliToFd, smallDisk, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { expectCase } from "../../../test/parquet-cases/check.js";
import { cases } from "../../../test/parquet-cases/out-b.js";
import { multiTurnEvalPickle } from "../../../test/parquet-cases/out-b-layouts.js";

const RUN = join(REPO, "data", "clariq", "runs", "question_ranking.run");

describe("convert --to parquet equals its JSONL (fixtures)", () => {
  for (const c of cases.filter((x) => x.name.startsWith("convert ") && !x.shared))
    it(c.name, async () => {
      expect(await expectCase(c)).toBeGreaterThan(0);
    }, 30_000);
});

describe("convert --to parquet: outputs", () => {
  it("--out-dir names each output <input>.parquet; the same bytes on every run", async () => {
    const dir = tempDir();
    const inputs = [RUN, join(REPO, "data", "clariq", "sample.qrel")];
    for (const out of ["a", "b"]) {
      const r = runCli("convert", ["--to", "parquet", "--out-dir", join(dir, out), ...inputs]);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(readdirSync(join(dir, "a")).sort()).toEqual([
      "question_ranking.run.parquet",
      "sample.qrel.parquet",
    ]);
    for (const f of readdirSync(join(dir, "a")))
      expect(readFileSync(join(dir, "a", f)).equals(readFileSync(join(dir, "b", f)))).toBe(true);
    expect((await openParquet(join(dir, "a", "sample.qrel.parquet"))).columns.get("rel")).toBe("int64");
  });

  it("stdout gets the Parquet bytes (- is stdout, as for JSONL)", async () => {
    const dir = tempDir();
    const file = join(dir, "out.parquet");
    const fd = openSync(file, "w");
    const r = runCliToFd("convert", ["--to", "parquet", RUN], fd);
    closeSync(fd);
    expect(r.code, r.stderr).toBe(0);
    const jsonl = runCli("convert", [RUN]).stdout.trim().split("\n");
    expect((await openParquet(file)).rows).toBe(jsonl.length);
  });

  it("--compression snappy and none: other bytes, the same rows", async () => {
    const dir = tempDir();
    const sizes: number[] = [];
    for (const codec of ["zstd", "snappy", "none"]) {
      const out = join(dir, `${codec}.parquet`);
      const r = runCli("convert", ["--to", "parquet", "--compression", codec, RUN, "-o", out]);
      expect(r.code, r.stderr).toBe(0);
      sizes.push(readFileSync(out).length);
      const t = await openParquet(out);
      const rows: unknown[] = [];
      for await (const b of t.batches({ what: "run line", columns: [{ name: "docno", type: "string" }] }))
        rows.push(...b);
      expect(rows.length).toBe(t.rows);
    }
    expect(new Set(sizes).size).toBe(3);
  });
});

describe("convert --to parquet: refused, nothing written", () => {
  const refused = (args: string[], line: RegExp, dir: string) => {
    const r = runCli("convert", args);
    expect(r.code, r.stderr).toBe(2);
    // one line (a usage error adds cli's "Try --help" line), never a stack trace
    expect(r.stderr.split("\n")[0]).toMatch(line);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).filter((f) => f.endsWith(".parquet") || f.startsWith("."))).toEqual([]);
  };

  it("--gzip with --to parquet, and a .parquet name without --to parquet: usage errors", () => {
    const dir = tempDir();
    refused(["--to", "parquet", "--gzip", RUN, "-o", join(dir, "o.parquet")], /--gzip is for JSONL/, dir);
    refused([RUN, "-o", join(dir, "o.parquet")], /names a Parquet file: add --to parquet/, dir);
  });

  it("an args.me field the schema does not declare is refused, not dropped", () => {
    const dir = tempDir();
    const input = join(dir, "args.json");
    writeFileSync(
      input,
      JSON.stringify({
        arguments: [{ id: "a1", conclusion: "c", premises: [{ text: "t", stance: "PRO" }], aspects: [] }],
      }),
    );
    refused(
      ["--to", "parquet", input, "-o", join(dir, "o.parquet")],
      /expected the fields id, conclusion.*found field aspects/,
      dir,
    );
  });

  it("an eval dict mixing int and facet-id contexts (a column has one type)", () => {
    const dir = tempDir();
    const input = join(dir, "eval.pkl");
    writeFileSync(input, multiTurnEvalPickle([3, "F0001"]));
    refused(
      ["--to", "parquet", input, "-o", join(dir, "o.parquet")],
      /expected int context keys throughout.*found context "F0001"/,
      dir,
    );
  });

  it("a pickle that is neither a synthetic nor an eval dict has no table", () => {
    const dir = tempDir();
    const input = join(dir, "x.pkl");
    // pickle.dumps([1, 2], protocol=2)
    writeFileSync(input, Buffer.from("80025d7100284b014b02652e", "hex"));
    refused(
      ["--to", "parquet", input, "-o", join(dir, "o.parquet")],
      /expected a ClariQ synthetic dict or eval dict/,
      dir,
    );
  });
});

requires("tmpfs").describe("convert --to parquet onto a full disk", () => {
  it("one line, exit 1, no file left", () => {
    const disk = smallDisk(64 * 1024, { full: true });
    try {
      const r = runCli("convert", ["--to", "parquet", RUN, "-o", join(disk.dir, "run.parquet")]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^[^\n]*\n$/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(readdirSync(disk.dir)).toEqual(["filler"]);
      expect(existsSync(join(disk.dir, "run.parquet"))).toBe(false);
    } finally {
      disk.unmount();
    }
  });
});
