// A column chunk with a dictionary page starts at that page, before its first data page: the
// reader's bound check (a chunk must lie inside the file) measured it from the data page and
// refused convkit's own files (iKAT topics as Parquet: "a chunk ending past byte 143036").
import { join } from "node:path";
import { tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { openParquet } from "./reader.js";
import type { TableSchema } from "./schema.js";
import { writeParquet } from "./writer.js";

const SCHEMA: TableSchema = {
  what: "row",
  columns: [
    { name: "n", type: "int64" },
    { name: "topic", type: "string" },
  ],
};

it("a dictionary-encoded last column reads back whole", async () => {
  const file = join(tempDir(), "dict.parquet");
  // 200 distinct 100-character strings, each 25 times: a dictionary page of about 20 KB, more than
  // the footer after it, so that a bound measured from the data page falls past the end
  const rows = Array.from({ length: 5000 }, (_, i) => ({ n: i, topic: `${i % 200} ${"x".repeat(96)}` }));
  await writeParquet(file, SCHEMA, [rows], { codec: "none" });
  const t = await openParquet(file);
  const got: Record<string, unknown>[] = [];
  for await (const b of t.batches(SCHEMA)) got.push(...b);
  expect(got).toEqual(rows);
});
