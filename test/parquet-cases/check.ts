// The Parquet cases (out-a.ts, out-b.ts) and their one check: a Parquet output read back with
// openParquet under its declared schema equals the JSONL rows of the same command, column for
// column, row for row, field for field, type for type (an int64 a safe integer on both sides:
// toEqual alone would not tell 1 from 1.0).
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { type ColumnSpec, openParquet, type ScalarType, type TableSchema, typeText } from "@convkit/parquet";
import { runCliAsync, tempDir } from "@convkit/test-helpers";
import { expect } from "vitest";

export type Row = Record<string, unknown>;

/** A command's Parquet output beside the JSONL of the same rows, made by the built CLI. */
export interface ParquetCase {
  name: string;
  /** Whether it reads ../shared (the tests that run it have `shared` in their name). */
  shared: boolean;
  /** The declared schema the Parquet file has (the tests read it back with it). */
  schema: TableSchema;
  /** Runs the command into `dir`: its Parquet output and the JSONL of the same rows. */
  make(dir: string): Promise<{ parquet: string; jsonl: string }>;
}

/** Runs the built `convkit-APP ARGS…` for a case; its stdout, or an error with its stderr if it fails. */
export async function run(app: string, args: string[]): Promise<string> {
  const r = await runCliAsync(app, args);
  if (r.code !== 0) throw new Error(`convkit-${app} ${args.join(" ")}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

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

/** Why `v` is no value of a `type` column; undefined when it is one. */
function scalarDiffers(type: ScalarType, nullable: boolean, v: unknown): string | undefined {
  if (v === null) return nullable ? undefined : "a null in a column that is not nullable";
  if (type === "int64") return Number.isSafeInteger(v) ? undefined : "an int64 column holds a non-integer";
  if (type === "double") return typeof v === "number" ? undefined : "a double that is no number";
  if (type === "boolean") return typeof v === "boolean" ? undefined : "a boolean that is none";
  return typeof v === "string" ? undefined : "a string that is none";
}

/** Why `v` (read from Parquet) is no value of column `c`, list elements and struct fields too. */
function typeDiffers(c: ColumnSpec, v: unknown): string | undefined {
  if (c.type !== "list") return scalarDiffers(c.type, c.nullable === true, v);
  if (!Array.isArray(v)) return "a list that is none";
  for (const x of v) {
    const why =
      "element" in c
        ? scalarDiffers(c.element, false, x)
        : c.fields.map((f) => scalarDiffers(f.type, f.nullable === true, (x as Row)[f.name])).find(Boolean);
    if (why !== undefined) return `an element: ${why}`;
  }
  return undefined;
}

/** -0 as 0, within lists and structs too. */
function noNegativeZero(v: unknown): unknown {
  if (Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(noNegativeZero);
  if (typeof v === "object" && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, noNegativeZero(x)]));
  return v;
}

/**
 * The Parquet file at `parquet` has exactly the declared columns and types, in order, and rows
 * equal to `rows` (JSON values) in order; a field a JSON row leaves out is a null of a nullable
 * column. A JSON -0 must be a -0 (Object.is), but a JSON 0 may be a Parquet -0: JSON.stringify
 * writes -0 as 0 (convkit's JSONL, and the rows out-b.ts writes) where the Parquet double keeps
 * the input's sign. One expectation at the end, naming the first difference
 * (rows may be hundreds of thousands). Returns the number of rows.
 */
export async function expectParquetRows(
  parquet: string,
  schema: TableSchema,
  rows: readonly Row[],
): Promise<number> {
  const t = await openParquet(parquet);
  expect([...t.columns], parquet).toEqual(Object.entries(schemaTypes(schema)));
  const got: Row[] = [];
  for await (const b of t.batches(schema)) for (const r of b) got.push(r);
  expect(got.length, `${parquet}: rows`).toBe(t.rows);
  expect(got.length, `${parquet}: rows`).toBe(rows.length);
  let first: string | undefined;
  for (let i = 0; i < rows.length && first === undefined; i++) {
    const p = got[i]!;
    const j = rows[i]!;
    const extra = Object.keys(j).filter((k) => !schema.columns.some((c) => c.name === k));
    if (extra.length > 0) first = `row ${i}: JSON fields ${extra.join(", ")} are no column`;
    for (const c of schema.columns) {
      if (first !== undefined) break;
      const jv = j[c.name] === undefined && c.type !== "list" && c.nullable ? null : j[c.name];
      const pv = p[c.name];
      const same = isDeepStrictEqual(pv, jv) || isDeepStrictEqual(noNegativeZero(pv), jv);
      const why = typeDiffers(c, pv) ?? (same ? undefined : "different values");
      if (why !== undefined)
        first = `row ${i}, column ${c.name}: ${why}: ${JSON.stringify(pv)} vs ${JSON.stringify(jv)}`;
    }
  }
  expect(first, parquet).toBeUndefined();
  return got.length;
}

/** Runs the case into a fresh directory and checks its Parquet file against its JSONL; returns the number of rows. */
export async function expectCase(c: ParquetCase): Promise<number> {
  const { parquet, jsonl } = await c.make(tempDir("parquet-case-"));
  return expectParquetRows(parquet, c.schema, jsonlRows(jsonl));
}
