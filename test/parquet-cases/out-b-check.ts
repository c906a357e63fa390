// Checks a Parquet output against the JSONL rows it must equal: read back with openParquet under
// its declared schema, every column's type as declared, row for row, field for field, and each
// value of its column's JS type (an int64 a safe integer, a string a string: toEqual alone would
// not tell 1 from 1.0, but does tell "1" from 1).
import { readFileSync } from "node:fs";
import { type ColumnSpec, openParquet } from "@convkit/parquet";
import { tempDir } from "@convkit/test-helpers";
import { expect } from "vitest";
import type { OutBCase } from "./out-b.js";

type Row = Record<string, unknown>;

/** -0 as 0: JSON has no -0 (JSON.stringify(-0) is "0"); the Parquet double keeps the input's sign. */
function noNegativeZero(v: unknown): unknown {
  if (Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(noNegativeZero);
  if (typeof v === "object" && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, noNegativeZero(x)]));
  return v;
}

function expectScalar(type: string, v: unknown, where: string): void {
  if (v === null) return; // nullable columns: the reader checked that the column may be null
  if (type === "int64") expect(Number.isSafeInteger(v), `${where}: ${String(v)} is an int64`).toBe(true);
  else if (type === "double") expect(typeof v, where).toBe("number");
  else expect(typeof v, where).toBe(type === "boolean" ? "boolean" : "string");
}

function expectTyped(c: ColumnSpec, v: unknown, where: string): void {
  if (c.type !== "list") return expectScalar(c.type, v, where);
  expect(Array.isArray(v), `${where} is a list`).toBe(true);
  for (const x of v as unknown[]) {
    if ("element" in c) expectScalar(c.element, x, where);
    else for (const f of c.fields) expectScalar(f.type, (x as Row)[f.name], `${where}.${f.name}`);
  }
}

/** Runs the case and checks its Parquet file against its JSONL; returns the number of rows. */
export async function expectCase(c: OutBCase): Promise<number> {
  const { parquet, jsonl, types } = await c.make(tempDir("parquet-out-b-"));
  const table = await openParquet(parquet);
  expect(Object.fromEntries(table.columns)).toEqual(types);
  expect([...table.columns.keys()]).toEqual(c.schema.columns.map((col) => col.name));
  const got: Row[] = [];
  for await (const b of table.batches(c.schema)) got.push(...b);
  const want = readFileSync(jsonl, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Row);
  expect(table.rows).toBe(want.length);
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    for (const col of c.schema.columns) expectTyped(col, got[i]![col.name], `row ${i + 1} ${col.name}`);
    expect(noNegativeZero(got[i]), `row ${i + 1}`).toEqual(want[i]);
  }
  return got.length;
}
