// A row group's columns as Parquet leaves: each leaf's values (nulls left out) and its repetition
// and definition levels (Dremel), computed straight from the row objects for the shapes convkit
// declares (scalars, nullable scalars, list<scalar>, list<struct<scalar…>>).
import type { Row } from "./file-encoding.js";
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

/** A required column's values, checked with one loop per type (this is the writer's hottest loop). */
function requiredValues(schema: TableSchema, c: ScalarColumn, rows: readonly Row[]): unknown[] {
  const n = rows.length;
  const name = c.name;
  const values = new Array<unknown>(n);
  switch (c.type) {
    case "string":
      for (let i = 0; i < n; i++) {
        const v = rows[i]![name];
        if (typeof v !== "string") checkScalar(schema, name, c.type, v);
        values[i] = v;
      }
      break;
    case "int64":
      for (let i = 0; i < n; i++) {
        const v = rows[i]![name];
        if (!Number.isSafeInteger(v)) checkScalar(schema, name, c.type, v);
        values[i] = v;
      }
      break;
    default:
      for (let i = 0; i < n; i++) {
        const v = rows[i]![name];
        checkScalar(schema, name, c.type, v);
        values[i] = v;
      }
  }
  return values;
}

function flatLeaf(schema: TableSchema, c: ScalarColumn, rows: readonly Row[]): Leaf {
  const n = rows.length;
  if (!c.nullable)
    return {
      path: [c.name],
      type: c.type,
      maxDef: 0,
      maxRep: 0,
      values: requiredValues(schema, c, rows),
      def: new Uint8Array(0),
      rep: new Uint8Array(0),
      entries: n,
      rowStarts: rowIndex(n),
    };
  const values: unknown[] = [];
  const def = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = rows[i]![c.name];
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
  rows: readonly Row[],
): Leaf[] {
  const fields: { name: string; type: ScalarType; nullable: boolean; key?: string }[] =
    "element" in c
      ? [{ name: "element", type: c.element, nullable: false }]
      : c.fields.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable === true, key: f.name }));
  let entries = 0;
  for (const r of rows) {
    const v = r[c.name];
    if (!Array.isArray(v)) bad(schema, c.name, "a list", v);
    entries += v.length === 0 ? 1 : v.length;
  }
  const rep = new Uint8Array(entries);
  const structDef = new Uint8Array(entries);
  const rowStarts = new Uint32Array(rows.length + 1);
  let e = 0;
  for (let i = 0; i < rows.length; i++) {
    rowStarts[i] = e;
    const list = rows[i]![c.name] as unknown[];
    if (list.length === 0) {
      e++;
      continue;
    }
    for (let j = 0; j < list.length; j++) {
      rep[e] = j === 0 ? 0 : 1;
      structDef[e] = 1;
      e++;
    }
  }
  rowStarts[rows.length] = e;
  return fields.map((f) => {
    const values: unknown[] = [];
    const def = f.nullable ? new Uint8Array(entries) : structDef;
    const column = f.key === undefined ? c.name : `${c.name}.${f.key}`;
    let k = 0;
    for (const r of rows) {
      const list = r[c.name] as unknown[];
      if (list.length === 0) {
        k++;
        continue;
      }
      for (const item of list) {
        let v: unknown = item;
        if (f.key !== undefined) {
          if (typeof item !== "object" || item === null) bad(schema, c.name, "a struct", item);
          v = (item as Row)[f.key];
        }
        if (f.nullable) {
          if (v === null || v === undefined) def[k] = 1;
          else {
            checkScalar(schema, column, f.type, v);
            def[k] = 2;
            values.push(v);
          }
        } else {
          checkScalar(schema, column, f.type, v);
          values.push(v);
        }
        k++;
      }
    }
    return {
      path: [c.name, "list", "element", ...(f.key === undefined ? [] : [f.key])],
      type: f.type,
      maxDef: f.nullable ? 2 : 1,
      maxRep: 1,
      values,
      def,
      rep,
      entries,
      rowStarts,
    };
  });
}

/** The leaves of a row group, in schema order, one column at a time (the values of one held at once). */
export function* leavesOf(schema: TableSchema, rows: readonly Row[]): Iterable<Leaf> {
  for (const c of schema.columns) {
    if (c.type === "list") yield* listLeaves(schema, c, rows);
    else yield flatLeaf(schema, c, rows);
  }
}
