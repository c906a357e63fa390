// A row group's columns as Parquet leaves: each leaf's values (nulls left out) and its repetition
// and definition levels (Dremel), computed straight from the row objects for the shapes convkit
// declares (scalars, nullable scalars, list<scalar>, list<struct<scalar…>>).
import { type Columns, columnOf, type Row } from "./file-encoding.js";
import type { ColumnSpec, ScalarColumn, ScalarType, TableSchema } from "./schema.js";

/** One leaf column of a row group, ready to encode. */
export interface Leaf {
  readonly path: string[];
  readonly type: ScalarType;
  readonly maxDef: number;
  readonly maxRep: number;
  /** Non-null values in order. */
  readonly values: unknown[];
  /** Levels per entry (an entry: a value, a null, or an empty list); empty when the max level is 0. */
  readonly def: Uint8Array;
  readonly rep: Uint8Array;
  /** Entries in all (values + nulls + empty lists). */
  readonly entries: number;
  /** Index of the first entry of each row, and entries at the end (rows + 1 numbers). */
  readonly rowStarts: Uint32Array;
}

function bad(schema: TableSchema, column: string, expected: string, v: unknown): never {
  throw new TypeError(
    `${schema.what}: column ${column} expected ${expected}, got ${JSON.stringify(v) ?? String(v)}`,
  );
}

/** Checks a value against its declared type (a wrong one is the caller's bug, not user input). */
export function checkScalar(schema: TableSchema, column: string, type: ScalarType, v: unknown): void {
  switch (type) {
    case "string":
      if (typeof v !== "string") bad(schema, column, type, v);
      return;
    case "int64":
      if (!Number.isSafeInteger(v)) bad(schema, column, "a safe integer", v);
      return;
    case "double":
      if (typeof v !== "number") bad(schema, column, type, v);
      return;
    case "boolean":
      if (typeof v !== "boolean") bad(schema, column, type, v);
      return;
  }
}

function rowIndex(n: number): Uint32Array {
  const starts = new Uint32Array(n + 1);
  for (let i = 0; i <= n; i++) starts[i] = i;
  return starts;
}

/** A required column's values, checked in place with one loop per type (the writer's hottest loop). */
function checkedRequired(schema: TableSchema, c: ScalarColumn, values: unknown[]): unknown[] {
  const n = values.length;
  switch (c.type) {
    case "string":
      for (let i = 0; i < n; i++)
        if (typeof values[i] !== "string") checkScalar(schema, c.name, c.type, values[i]);
      break;
    case "int64":
      for (let i = 0; i < n; i++)
        if (!Number.isSafeInteger(values[i])) checkScalar(schema, c.name, c.type, values[i]);
      break;
    default:
      for (let i = 0; i < n; i++) checkScalar(schema, c.name, c.type, values[i]);
  }
  return values;
}

function flatLeaf(schema: TableSchema, c: ScalarColumn, column: unknown[]): Leaf {
  const n = column.length;
  if (!c.nullable)
    return {
      path: [c.name],
      type: c.type,
      maxDef: 0,
      maxRep: 0,
      values: checkedRequired(schema, c, column),
      def: new Uint8Array(0),
      rep: new Uint8Array(0),
      entries: n,
      rowStarts: rowIndex(n),
    };
  const values: unknown[] = [];
  const def = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = column[i];
    if (v === null || v === undefined) continue;
    checkScalar(schema, c.name, c.type, v);
    def[i] = 1;
    values.push(v);
  }
  return {
    path: [c.name],
    type: c.type,
    maxDef: 1,
    maxRep: 0,
    values,
    def,
    rep: new Uint8Array(0),
    entries: n,
    rowStarts: rowIndex(n),
  };
}

/**
 * Leaves of a list column (three-level layout, the list itself required): an empty list is one
 * entry at definition 0; an item at 1 (or, for a nullable struct field, 2 present / 1 null).
 */
function listLeaves(
  schema: TableSchema,
  c: Extract<ColumnSpec, { type: "list" }>,
  lists: readonly unknown[],
): Leaf[] {
  const fields: { name: string; type: ScalarType; nullable: boolean; key?: string }[] =
    "element" in c
      ? [{ name: "element", type: c.element, nullable: false }]
      : c.fields.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable === true, key: f.name }));
  let entries = 0;
  let count = 0;
  for (const v of lists) {
    if (!Array.isArray(v)) bad(schema, c.name, "a list", v);
    entries += v.length === 0 ? 1 : v.length;
    count += v.length;
  }
  // One pass over the rows: levels, and every item in order (each field then reads items alone).
  const rep = new Uint8Array(entries);
  const structDef = new Uint8Array(entries);
  const rowStarts = new Uint32Array(lists.length + 1);
  const items = new Array<unknown>(count);
  let e = 0;
  let k = 0;
  for (let i = 0; i < lists.length; i++) {
    rowStarts[i] = e;
    const list = lists[i] as unknown[];
    if (list.length === 0) {
      e++;
      continue;
    }
    for (let j = 0; j < list.length; j++) {
      rep[e] = j === 0 ? 0 : 1;
      structDef[e] = 1;
      items[k++] = list[j];
      e++;
    }
  }
  rowStarts[lists.length] = e;
  return fields.map((f) => {
    const column = f.key === undefined ? c.name : `${c.name}.${f.key}`;
    const key = f.key;
    let values: unknown[];
    if (key !== undefined)
      for (const item of items)
        if (typeof item !== "object" || item === null) bad(schema, c.name, "a struct", item);
    if (!f.nullable) {
      values = new Array<unknown>(count);
      for (let i = 0; i < count; i++) {
        const v = key === undefined ? items[i] : (items[i] as Row)[key];
        if (typeof v !== "string" || f.type !== "string") checkScalar(schema, column, f.type, v);
        values[i] = v;
      }
      return {
        path: leafPath(c.name, key),
        type: f.type,
        maxDef: 1,
        maxRep: 1,
        values,
        def: structDef,
        rep,
        entries,
        rowStarts,
      };
    }
    values = [];
    const def = new Uint8Array(entries);
    let i = 0;
    for (let x = 0; x < entries; x++) {
      if (structDef[x] === 0) continue;
      const item = items[i++];
      const v = key === undefined ? item : (item as Row)[key];
      if (v === null || v === undefined) def[x] = 1;
      else {
        checkScalar(schema, column, f.type, v);
        def[x] = 2;
        values.push(v);
      }
    }
    return {
      path: leafPath(c.name, key),
      type: f.type,
      maxDef: 2,
      maxRep: 1,
      values,
      def,
      rep,
      entries,
      rowStarts,
    };
  });
}

function leafPath(name: string, key: string | undefined): string[] {
  return key === undefined ? [name, "list", "element"] : [name, "list", "element", key];
}

/** The leaves of a row group, in schema order, one column at a time (the values of one held at once). */
export function* leavesOf(schema: TableSchema, columns: Columns): Iterable<Leaf> {
  for (const c of schema.columns) {
    const values = columnOf(columns, c.name);
    if (c.type === "list") yield* listLeaves(schema, c, values);
    else yield flatLeaf(schema, c, values);
  }
}
