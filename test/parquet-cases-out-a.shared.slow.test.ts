// The cases handed to the Python cross-check (parquet-cases/out-a.ts) hold what they claim: each
// Parquet file has the declared columns and types and the rows of the JSONL beside it.
import {
  EVAL_ENTRY_SCHEMA,
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  PASSAGE_SCHEMA,
  QULAC_HIST_RECORD_SCHEMA,
  SYNTHETIC_RECORD_SCHEMA,
} from "@convkit/formats";
import { openParquet } from "@convkit/parquet";
import { requires, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { expectParquetRows, jsonlRows, schemaTypes } from "./parquet-cases/compare.js";
import { cases } from "./parquet-cases/out-a.js";

const SCHEMAS = [
  SYNTHETIC_RECORD_SCHEMA,
  QULAC_HIST_RECORD_SCHEMA,
  PASSAGE_SCHEMA,
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  EVAL_ENTRY_SCHEMA,
];

requires("shared").describe("parquet-cases/out-a", () => {
  for (const c of cases)
    it(c.name, async () => {
      const { parquet, jsonl, types } = await c.make(tempDir("parquet-case-"));
      expect(Object.fromEntries((await openParquet(parquet)).columns)).toEqual(types);
      const schema = SCHEMAS.find((s) => JSON.stringify(schemaTypes(s)) === JSON.stringify(types));
      expect(schema).toBeDefined();
      await expectParquetRows(parquet, schema!, jsonlRows(jsonl));
    });
});
