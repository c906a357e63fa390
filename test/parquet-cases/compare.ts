// A Parquet output checked against the JSONL (or JSON) output of the same command: the same rows,
// field for field, type for type (int64 columns hold integers on both sides).
import { readFileSync } from "node:fs";
import { openParquet, type TableSchema, typeText } from "@convkit/parquet";
import { expect } from "vitest";

type Row = Record<string, unknown>;

/** The column → type text map a schema declares (`int64`, `list<struct<question: string, …>>`). */
export function schemaTypes(schema: TableSchema): Record<string, string> {
  return Object.fromEntries(schema.columns.map((c) => [c.name, typeText(c)]));
}

/** The lines of a JSONL file, each parsed. */
export function jsonlRows(path: string): Row[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Row);
}

/** Every row of a Parquet file, read with the declared schema. */
export async function parquetRows(path: string, schema: TableSchema): Promise<Row[]> {
  const t = await openParquet(path);
  const out: Row[] = [];
  for await (const b of t.batches(schema)) for (const r of b) out.push(r);
  expect(out.length).toBe(t.rows);
  return out;
}

/** Why value `p` (from Parquet) is not `j` (from JSON) for a column of type `type`; undefined when equal. */
function differs(type: string, p: unknown, j: unknown): string | undefined {
  if (type === "int64" && !(Number.isSafeInteger(p) && Number.isSafeInteger(j)))
    return "an int64 column holds a non-integer";
  if (type === "double" && !(typeof p === "number" && typeof j === "number"))
    return "a double that is no number";
  if (type === "boolean" && !(typeof p === "boolean" && typeof j === "boolean"))
    return "a boolean that is none";
  if (type === "string" && !(typeof p === "string" && typeof j === "string")) return "a string that is none";
  if (JSON.stringify(p) !== JSON.stringify(j)) return "different values";
  // -0 and 0 print alike; Object.is tells them apart.
  if (typeof p === "number" && !Object.is(p, j)) return "different numbers";
  return undefined;
}

/**
 * The Parquet file at `parquet` has exactly the declared columns and types, and rows equal to
 * `rows` (JSON values) in order; a field a JSON row leaves out is a null of a nullable column.
 * One expectation at the end, naming the first difference (rows may be hundreds of thousands).
 */
export async function expectParquetRows(
  parquet: string,
  schema: TableSchema,
  rows: readonly Row[],
): Promise<void> {
  const t = await openParquet(parquet);
  expect(Object.fromEntries(t.columns)).toEqual(schemaTypes(schema));
  const got = await parquetRows(parquet, schema);
  expect(got.length, `${parquet}: rows`).toBe(rows.length);
  const nullable = new Set(schema.columns.filter((c) => c.type !== "list" && c.nullable).map((c) => c.name));
  let first: string | undefined;
  for (let i = 0; i < rows.length && first === undefined; i++) {
    const p = got[i]!;
    const j = rows[i]!;
    const extra = Object.keys(j).filter((k) => !schema.columns.some((c) => c.name === k));
    if (extra.length > 0) first = `row ${i}: JSON fields ${extra.join(", ")} are no column`;
    for (const c of schema.columns) {
      if (first !== undefined) break;
      const jv = j[c.name] === undefined && nullable.has(c.name) ? null : j[c.name];
      const pv = p[c.name] ?? null;
      if (jv === null && pv === null && nullable.has(c.name)) continue;
      const why = differs(typeText(c), pv, jv);
      if (why !== undefined)
        first = `row ${i}, column ${c.name}: ${why}: ${JSON.stringify(pv)} vs ${JSON.stringify(jv)}`;
    }
  }
  expect(first, parquet).toBeUndefined();
}
