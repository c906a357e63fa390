// Table schemas, declared (never inferred from the data), and their Parquet schema elements.
import type { SchemaElement } from "hyparquet";

/** A column's value type; `int64` values are JS numbers (safe integers) on both sides. */
export type ScalarType = "string" | "int64" | "double" | "boolean";

/** A column of one value per row. */
export interface ScalarColumn {
  readonly name: string;
  readonly type: ScalarType;
  /** Whether a row may hold `null` (or leave the field out); otherwise a missing value is a bug. */
  readonly nullable?: boolean;
}

/** A column of lists of structs, e.g. a conversation history `list<struct<question, answer>>`. */
export interface StructListColumn {
  readonly name: string;
  readonly type: "list";
  readonly fields: readonly ScalarColumn[];
}

/** A column of lists of values, e.g. ids `list<string>`. */
export interface ScalarListColumn {
  readonly name: string;
  readonly type: "list";
  readonly element: ScalarType;
}

export type ColumnSpec = ScalarColumn | StructListColumn | ScalarListColumn;

/** A record type's table: its columns in order. Rows are objects keyed by column name. */
export interface TableSchema {
  /** What a row is, for messages ("a synthetic record"). */
  readonly what: string;
  readonly columns: readonly ColumnSpec[];
}

/** `list<struct<question: string, answer: string>>`-style text of a column's type (messages, docs). */
export function typeText(c: ColumnSpec): string {
  if (c.type !== "list") return c.type;
  if ("element" in c) return `list<${c.element}>`;
  return `list<struct<${c.fields.map((f) => `${f.name}: ${f.type}`).join(", ")}>>`;
}

function scalarElement(c: ScalarColumn, repetition: "REQUIRED" | "OPTIONAL"): SchemaElement {
  const base = { name: c.name, repetition_type: repetition } as const;
  switch (c.type) {
    case "string":
      return { ...base, type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" } };
    case "int64":
      return { ...base, type: "INT64" };
    case "double":
      return { ...base, type: "DOUBLE" };
    case "boolean":
      return { ...base, type: "BOOLEAN" };
  }
}

/**
 * The Parquet schema of a table: flat columns as they are, lists in the standard three-level
 * layout (`NAME (LIST) / list (repeated) / element`) that pyarrow, polars, DuckDB and Spark write
 * and read.
 */
export function schemaElements(schema: TableSchema): SchemaElement[] {
  const out: SchemaElement[] = [{ name: "schema", num_children: schema.columns.length }];
  for (const c of schema.columns) {
    if (c.type !== "list") {
      out.push(scalarElement(c, c.nullable ? "OPTIONAL" : "REQUIRED"));
      continue;
    }
    out.push({
      name: c.name,
      repetition_type: "REQUIRED",
      num_children: 1,
      converted_type: "LIST",
      logical_type: { type: "LIST" },
    });
    out.push({ name: "list", repetition_type: "REPEATED", num_children: 1 });
    if ("element" in c) out.push(scalarElement({ name: "element", type: c.element }, "REQUIRED"));
    else {
      out.push({ name: "element", repetition_type: "REQUIRED", num_children: c.fields.length });
      for (const f of c.fields) out.push(scalarElement(f, f.nullable ? "OPTIONAL" : "REQUIRED"));
    }
  }
  return out;
}
