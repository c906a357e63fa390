// The cases handed to the Python cross-check (parquet-cases/out-a.ts) hold what they claim: each
// Parquet file has the declared columns and types and the rows of the JSONL beside it.
import { requires } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { expectCase } from "./parquet-cases/check.js";
import { cases } from "./parquet-cases/out-a.js";

requires("shared").describe("parquet-cases/out-a", () => {
  for (const c of cases)
    it(c.name, async () => {
      expect(await expectCase(c)).toBeGreaterThan(0);
    });
});
