// `-` reads stdin wherever a CLI takes an input path: format detection sniffs the head of a
// stream that cannot be reopened and replays it, plain, gzip or bzip2. Each case: the stdin
// route gives the same stdout as the file route.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bzip2, expectStdinLikeFile, REPO, runCliAsync } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const FIXTURES = ["clariq", "clariq/runs", "qulac", "ikat", "touche"].flatMap((d) =>
  readdirSync(join(REPO, "data", d), { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join("data", d, e.name)),
);

describe("convkit-convert -", () => {
  it.each(FIXTURES)("%s through stdin (plain, gzip, bzip2) equals the file", async (file) => {
    await expectStdinLikeFile("convert", (input) => [input, "-o", "-"], join(REPO, file));
  });

  it("an empty stdin is one line and exit 2, not a stack trace", async () => {
    const r = await runCliAsync("convert", ["-", "-o", "-"], "");
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")[0]).toMatch(/^<stdin>/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("a bad line read from stdin stops the run at once (the rest of the pipe is not waited for)", async () => {
    const head = readFileSync(join(REPO, "data/clariq/sample.qrel"), "utf8").split("\n")[0];
    const big = `${head}\nnot a qrels line\n${`${head}\n`.repeat(200_000)}`;
    const r = await runCliAsync("convert", ["--format", "qrels", "-", "-o", "-"], big);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^<stdin>:2/);
  });

  it("a long bzip2 input on stdin: its one summary line on stderr, nothing else (was a MaxListenersExceededWarning)", async () => {
    const lines = Array.from({ length: 1_500_000 }, (_, i) => `${i % 5000} 0 doc${i} ${i % 3}\n`).join("");
    const r = await runCliAsync(
      "convert",
      ["--format", "qrels", "-", "-o", "/dev/null"],
      bzip2(Buffer.from(lines)),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("-: 1500000 qrels records -> /dev/null\n");
  }, 60_000);
});

describe("convkit-trec-eval with the run on stdin", () => {
  it("equals the file route (trec_eval's own test files)", async () => {
    const dir = join(REPO, "test/fixtures/trec_eval");
    await expectStdinLikeFile(
      "trec-eval",
      (input) => ["-q", join(dir, "qrels.test"), input],
      join(dir, "results.test"),
    );
  });
});
