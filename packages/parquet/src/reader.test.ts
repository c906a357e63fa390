// The reader gives back what the writer wrote: flat, nullable, list and list<struct> columns,
// across row groups and pages (rows are built from the columns' pages, not hyparquet's objects).
import { join } from "node:path";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { openParquet } from "./reader.js";
import type { TableSchema } from "./schema.js";
import { writeParquet } from "./writer.js";

const SCHEMA: TableSchema = {
  what: "record",
  columns: [
    { name: "id", type: "int64" },
    { name: "text", type: "string" },
    { name: "note", type: "string", nullable: true },
    { name: "score", type: "double" },
    { name: "ok", type: "boolean" },
    { name: "ids", type: "list", element: "string" },
    {
      name: "turns",
      type: "list",
      fields: [
        { name: "question", type: "string" },
        { name: "answer", type: "string" },
      ],
    },
  ],
};

const ROWS = Array.from({ length: 5000 }, (_, i) => ({
  id: i * 1_000_003,
  // Long texts now and then: pages of very different sizes.
  text: `row ${i} ${"é".repeat(i % 97 === 0 ? 20_000 : i % 13)}`,
  note: i % 3 === 0 ? null : `n${i}`,
  score: i / 7,
  ok: i % 2 === 0,
  ids: Array.from({ length: i % 4 }, (_, k) => `d${i}-${k}`),
  turns: Array.from({ length: i % 3 }, (_, k) => ({
    question: `q${i}.${k}`,
    answer: k === 1 ? "" : `a${i}`,
  })),
}));

describe("openParquet", () => {
  // 700-row groups, and one group of all rows whose text column spans pages (1 MiB each, some 2 MiB of text).
  for (const [codec, rowGroupRows] of [
    ["zstd", 700],
    ["snappy", 700],
    ["none", 700],
    ["zstd", 5000],
  ] as const)
    it(`reads back every row and field (${codec}, ${rowGroupRows}-row groups)`, async () => {
      const path = join(tempDir("parquet-rt-"), "t.parquet");
      await writeParquet(path, SCHEMA, [ROWS.slice(0, 2500), ROWS.slice(2500)], { codec, rowGroupRows });
      const t = await openParquet(path);
      expect(t.rows).toBe(ROWS.length);
      const got: unknown[] = [];
      let batches = 0;
      for await (const b of t.batches(SCHEMA)) {
        batches++;
        got.push(...b);
      }
      expect(batches).toBe(Math.ceil(ROWS.length / rowGroupRows));
      expect(got).toEqual(ROWS);
    });
});
