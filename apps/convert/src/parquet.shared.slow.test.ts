// convkit-convert --to parquet on the real ClariQ, Qulac and iKAT files: each Parquet file equals
// the JSONL of the same records row for row, field for field, type for type (test/parquet-cases).
import { requires } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { expectCase } from "../../../test/parquet-cases/check.js";
import { cases } from "../../../test/parquet-cases/out-b.js";

requires("shared").describe("convert --to parquet equals its JSONL (shared)", () => {
  for (const c of cases.filter((x) => x.name.startsWith("convert ") && x.shared))
    it(c.name, async () => {
      expect(await expectCase(c)).toBeGreaterThan(0);
    }, 60_000);
});
