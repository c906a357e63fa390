// A Parquet file given where JSON Lines (or JSON, or text) are read: one line saying so and naming
// the user's file (explore once named its temporary copy), exit 2; not the binary bytes it found.
import { join } from "node:path";
import { runCli, tempDir, writeEvalFixture } from "@convkit/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";

describe("a Parquet file where JSON Lines are read", () => {
  const dir = tempDir("parquet-where-lines-");
  const parquet = join(dir, "syn", "dev_synthetic.parquet");
  beforeAll(() => {
    writeEvalFixture(dir);
    const g = runCli("gen-synthetic", [
      "--data",
      dir,
      "--splits",
      "dev",
      "--format",
      "parquet",
      "--out",
      join(dir, "syn"),
    ]);
    expect(g.code, g.stderr).toBe(0);
  }, 60_000);

  const cases: [string, () => string[]][] = [
    ["explore --synthetic", () => ["explore", "--synthetic", parquet]],
    ["explore --passages", () => ["explore", "--passages", parquet]],
    ["compare --per-topic", () => ["compare", "--per-topic", parquet, parquet]],
    [
      "gen-eval --contexts",
      () => ["gen-eval", ...gen(["--contexts", parquet, "--texts", join(dir, "docs.jsonl")])],
    ],
    ["gen-eval --texts", () => ["gen-eval", ...gen(["--texts", parquet])]],
  ];
  const gen = (more: string[]) => [
    ...["--data", dir, "--docs", join(dir, "docs.run"), "--qrels", join(dir, "dev.qrel")],
    ...more,
    ...["-o", join(dir, "out", "eval")],
  ];
  for (const [name, args] of cases)
    it(name, () => {
      const [cmd, ...rest] = args();
      const r = runCli(cmd!, rest);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `${parquet}: a Parquet file, where this option reads JSON Lines (convkit convert ${parquet} gives them)\n`,
      );
    }, 60_000);
});
