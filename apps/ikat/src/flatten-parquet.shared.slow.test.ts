// convkit-ikat flatten --format parquet on the real 2023 and 2025 topics: the rows of its JSONL
// (ptkb as {id, text} pairs, 2025's lists empty before 2025), type for type.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { requires, runCli, SHARED, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { expectCase } from "../../../test/parquet-cases/check.js";
import { cases } from "../../../test/parquet-cases/out-b.js";

requires("shared").describe("ikat flatten --format parquet (shared)", () => {
  for (const c of cases.filter((x) => x.name.startsWith("ikat flatten ")))
    it(`${c.name} equals its JSONL`, async () => {
      expect(await expectCase(c)).toBeGreaterThan(0);
    }, 60_000);

  it("-o FILE.parquet without --format parquet is a usage error, nothing written", () => {
    const dir = tempDir();
    const topics = join(SHARED, "data", "ikat", "2023_test_topics.json");
    const r = runCli("ikat", ["flatten", topics, "-o", join(dir, "turns.parquet")]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split("\n")[0]).toMatch(/names a Parquet file: add --format parquet/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
