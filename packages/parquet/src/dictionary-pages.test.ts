// A column chunk with a dictionary page starts at that page, before its first data page: the
// reader's bound check (a chunk must lie inside the file) measured it from the data page and
// refused convkit's own files (iKAT topics as Parquet: "a chunk ending past byte 143036").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@convkit/test-helpers";
import { parquetMetadata } from "hyparquet";
import { describe, expect, it } from "vitest";
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

/** Whether each column chunk of `rows` (one row group) is written with a dictionary page. */
async function dictionaryChunks(rows: { n: number; topic: string }[]): Promise<boolean[]> {
  const file = join(tempDir(), "chunks.parquet");
  await writeParquet(file, SCHEMA, [rows], { codec: "none", rowGroupRows: rows.length });
  const bytes = readFileSync(file);
  const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  expect(meta.row_groups).toHaveLength(1);
  return meta.row_groups[0]!.columns.map((c) => c.meta_data?.dictionary_page_offset !== undefined);
}

// When a chunk gets a dictionary (encoder.ts: values encoded as they come, chunk-builder.ts): the
// rules fix the bytes, which a table read back does not show (encoder.test.ts compares tables).
describe("which chunks get a dictionary", () => {
  it("repeated values do; distinct ids do not", async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ n: i, topic: `topic ${i % 50}` }));
    expect(await dictionaryChunks(rows)).toEqual([false, true]);
  });
  it("a dictionary past 1 MiB is given up (pyarrow's dictionary page limit)", async () => {
    // 3,000 distinct 400-byte values (1.2 MB of keys), each twice: a dictionary would still halve them
    const rows = Array.from({ length: 6_000 }, (_, i) => ({
      n: i % 2,
      topic: `${i >> 1} ${"y".repeat(396)}`,
    }));
    expect(await dictionaryChunks(rows)).toEqual([true, false]);
    // 2,000 of them (0.8 MB of keys): kept
    expect(await dictionaryChunks(rows.slice(0, 4_000))).toEqual([true, true]);
  });
  it("mostly distinct values at value 4,096 give the dictionary up, even if the rest repeat", async () => {
    // 4,097 distinct values first, then one value 60,000 times: a dictionary would pay in the end
    const rows = Array.from({ length: 64_097 }, (_, i) => ({ n: 0, topic: i < 4_097 ? `t${i}` : "same" }));
    expect(await dictionaryChunks(rows)).toEqual([true, false]);
    // a hundred repeats among the first 4,097 (97.6% distinct, under the probe's 98%): kept
    const fewer = rows.map((r, i) => (i < 200 ? { n: 0, topic: `t${i % 100}` } : r));
    expect(await dictionaryChunks(fewer)).toEqual([true, true]);
  });
});
