// The input limits every command takes (issue #39, item 3): --max-input-bytes and --max-line-bytes
// set the one policy of @convkit/io's readers; a bad value is a usage error.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const d = tempDir("input-limits-");
const qrels = join(d, "x.qrel");
writeFileSync(qrels, Array.from({ length: 100 }, (_, i) => `${1 + (i % 5)} 0 doc-${i} ${i % 2}\n`).join(""));
const run = join(d, "x.run");
writeFileSync(
  run,
  Array.from({ length: 100 }, (_, i) => `${1 + (i % 5)} Q0 doc-${i} ${i} ${100 - i} r\n`).join(""),
);

describe("--max-input-bytes and --max-line-bytes, on any command", () => {
  it("a whole input (trec-eval's qrels) past --max-input-bytes is one line, exit 2; raised, it is read", () => {
    const r = runCli("trec-eval", ["--max-input-bytes", "1000", qrels, run]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^.*x\.qrel: expected at most 1,000 bytes to hold whole, after decompression \(raise with --max-input-bytes\), found more \([\d,]+ bytes read\)\n$/,
    );
    expect(runCli("trec-eval", ["--max-input-bytes", "100000", qrels, run]).code).toBe(0);
  });

  it("a line past --max-line-bytes is one line, exit 2 (convert, read line by line)", () => {
    const r = runCli("convert", ["--max-line-bytes", "10", qrels, "-o", "-"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /x\.qrel:\d+: expected a line of at most 10 bytes \(raise with --max-line-bytes\), found a longer one\n$/,
    );
    expect(r.stdout).toBe("");
  });

  it("a value that is not a positive integer is a usage error", () => {
    const r = runCli("convert", ["--max-line-bytes", "0", qrels]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--max-line-bytes takes an integer >= 1");
  });
});
