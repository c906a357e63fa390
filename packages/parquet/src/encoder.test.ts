// The fast encoder against its reference (hyparquet-writer's own writer): seeded schemas and rows,
// both files read back by hyparquet, both equal to the rows written. Runs without ../shared.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CODECS, type Codec } from "./codec.js";
import { openParquet } from "./reader.js";
import type { ColumnSpec, ScalarColumn, ScalarType, TableSchema } from "./schema.js";
import { ParquetTableWriter } from "./writer.js";

const dir = mkdtempSync(join(tmpdir(), "convkit-parquet-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** mulberry32: a small seeded generator (the cases must be the same on every run). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SCALARS: ScalarType[] = ["string", "int64", "double", "boolean"];
const WORDS = ["", "a", "what", "é", "日本語", "🙂 emoji", "tab\there", "line\nbreak", "x".repeat(300)];

function randomValue(r: () => number, type: ScalarType, distinct: number): unknown {
  switch (type) {
    case "string": {
      const k = Math.floor(r() * distinct);
      return k < WORDS.length ? WORDS[k] : `w${k}-${WORDS[k % WORDS.length]}`;
    }
    case "int64": {
      const edge = [
        0,
        -1,
        1,
        2 ** 31,
        -(2 ** 31) - 1,
        2 ** 32,
        Number.MAX_SAFE_INTEGER,
        Number.MIN_SAFE_INTEGER,
      ];
      return r() < 0.1
        ? edge[Math.floor(r() * edge.length)]
        : Math.floor(r() * distinct) - Math.floor(distinct / 3);
    }
    case "double": {
      const edge = [0, -0, 0.1, 1e300, -1e-300, Number.NaN, Number.POSITIVE_INFINITY, 5e-324];
      return r() < 0.1 ? edge[Math.floor(r() * edge.length)] : Math.floor(r() * distinct) / 7;
    }
    case "boolean":
      return r() < 0.5;
  }
}

function randomSchema(r: () => number): TableSchema {
  const columns: ColumnSpec[] = [];
  const n = 1 + Math.floor(r() * 6);
  const scalar = (name: string): ScalarColumn => ({
    name,
    type: SCALARS[Math.floor(r() * SCALARS.length)]!,
    nullable: r() < 0.3,
  });
  for (let i = 0; i < n; i++) {
    const kind = r();
    if (kind < 0.6) columns.push(scalar(`c${i}`));
    else if (kind < 0.8)
      columns.push({ name: `c${i}`, type: "list", element: SCALARS[Math.floor(r() * 4)]! });
    else columns.push({ name: `c${i}`, type: "list", fields: [scalar("question"), scalar("answer")] });
  }
  return { what: "row", columns };
}

function randomRows(r: () => number, schema: TableSchema, count: number): Record<string, unknown>[] {
  const distinct = [2, 50, 5000][Math.floor(r() * 3)]!;
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const row: Record<string, unknown> = {};
    for (const c of schema.columns) {
      if (c.type !== "list") row[c.name] = c.nullable && r() < 0.2 ? null : randomValue(r, c.type, distinct);
      else {
        const len = r() < 0.3 ? 0 : Math.floor(r() * 4);
        row[c.name] = Array.from({ length: len }, () =>
          "element" in c
            ? randomValue(r, c.element, distinct)
            : Object.fromEntries(
                c.fields.map((f) => [
                  f.name,
                  f.nullable && r() < 0.2 ? null : randomValue(r, f.type, distinct),
                ]),
              ),
        );
      }
    }
    rows.push(row);
  }
  return rows;
}

async function write(
  path: string,
  schema: TableSchema,
  rows: readonly Record<string, unknown>[],
  o: { codec: Codec; rowGroupRows: number },
  reference: boolean,
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const sink = { write: async (b: string | Uint8Array) => void chunks.push(Buffer.from(b)) };
  const w = reference
    ? await ParquetTableWriter.openReference(sink, schema, o)
    : await ParquetTableWriter.open(sink, schema, o);
  // In batches of varied sizes, as a pipeline hands them over: as row objects, or (odd row
  // counts of the batch size) the same rows as columns.
  for (let i = 0, k = 0; i < rows.length; i += 97, k++) {
    const batch = rows.slice(i, i + 97);
    if (k % 2 === 0) await w.write(batch);
    else
      await w.writeColumns(
        Object.fromEntries(schema.columns.map((c) => [c.name, batch.map((r) => r[c.name])])),
      );
  }
  await w.finish();
  const bytes = Buffer.concat(chunks);
  writeFileSync(path, bytes);
  return bytes;
}

async function readBack(path: string, schema: TableSchema): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const b of (await openParquet(path)).batches(schema)) out.push(...b);
  return out;
}

function withoutNegativeZero(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (_, x) => (Object.is(x, -0) ? 0 : Number.isNaN(x) ? "NaN" : x)));
}

describe("the fast encoder against hyparquet-writer's (seeded)", () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`seed ${seed}`, async () => {
      const r = rng(seed);
      const schema = randomSchema(r);
      const rows = randomRows(r, schema, [0, 1, 7, 300, 2500][seed % 5]!);
      // One row per row group only for the small cases (thousands of row groups take minutes).
      const groupRows = [rows.length > 300 ? 7 : 1, 64, 1000, 100_000][Math.floor(r() * 4)]!;
      const o = { codec: CODECS[seed % 3]!, rowGroupRows: groupRows };
      const fast = join(dir, `fast-${seed}.parquet`);
      const ref = join(dir, `ref-${seed}.parquet`);
      const bytes = await write(fast, schema, rows, o, false);
      await write(ref, schema, rows, o, true);
      // The reference's dictionary merges -0 into 0 (a Map's SameValueZero); otherwise it
      // gives back the rows. The fast path must give back the rows exactly, -0 included.
      expect(withoutNegativeZero(await readBack(ref, schema))).toEqual(withoutNegativeZero(rows));
      expect(await readBack(fast, schema)).toEqual(rows);
      // The same rows give the same bytes on a second run.
      expect(Buffer.compare(await write(fast, schema, rows, o, false), bytes)).toBe(0);
    });
  }
});
