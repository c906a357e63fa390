// Writing a table as Parquet while its rows come: one row group at a time into a byte sink.
import { type ByteSink, writeAtomic } from "@convkit/io";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { type Codec, compressorsFor } from "./codec.js";
import { type ColumnSpec, type ScalarType, schemaElements, type TableSchema } from "./schema.js";

/** What every file says wrote it: fixed, so that the same rows give the same bytes on every run. */
export const CREATED_BY = "convkit version 0.1.0 (hyparquet-writer 0.17.0)";

export interface ParquetWriteOptions {
  /** Page compression; zstd by default (what the Hugging Face hub and DuckDB default to). */
  codec?: Codec;
  /** A row group closes at this many rows… */
  rowGroupRows?: number;
  /** …or once its values hold about this many bytes (memory is bounded by one row group). */
  rowGroupBytes?: number;
}

const DEFAULT_ROW_GROUP_ROWS = 128 * 1024;
const DEFAULT_ROW_GROUP_BYTES = 32 << 20;

/** hyparquet-writer's buffer, handed to the sink after every row group (and at the end). */
class SinkWriter extends ByteWriter {
  constructor(private readonly sink: ByteSink) {
    super(1 << 20);
  }
  flush(): Promise<void> {
    const bytes = this.getBytes().slice();
    this.index = 0;
    return this.sink.write(bytes);
  }
  override finish(): Promise<void> {
    return this.flush();
  }
}

type Row = Readonly<Record<string, unknown>>;

/**
 * A Parquet file being written: `write` takes rows in order and closes a row group whenever it
 * is full (by rows or by bytes: both counted from the data, so the same rows make the same row
 * groups); `finish` writes the last one and the footer. Rows are checked against the schema as
 * they are turned into columns: a value of the wrong type is a bug of the caller, not user input.
 */
export class ParquetTableWriter<R extends object> {
  private readonly writer: ParquetWriter;
  private pending: Row[] = [];
  private pendingBytes = 0;
  private rows = 0;
  private readonly maxRows: number;
  private readonly maxBytes: number;

  private constructor(
    sink: ByteSink,
    private readonly schema: TableSchema,
    codec: Codec,
    compressors: Awaited<ReturnType<typeof compressorsFor>>,
    o: ParquetWriteOptions,
  ) {
    this.writer = new ParquetWriter({
      writer: new SinkWriter(sink),
      schema: schemaElements(schema),
      codec: codec === "zstd" ? "ZSTD" : codec === "snappy" ? "SNAPPY" : "UNCOMPRESSED",
      compressors,
      createdBy: CREATED_BY,
    });
    this.maxRows = o.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
    this.maxBytes = o.rowGroupBytes ?? DEFAULT_ROW_GROUP_BYTES;
  }

  static async open<R extends object>(
    sink: ByteSink,
    schema: TableSchema,
    o: ParquetWriteOptions = {},
  ): Promise<ParquetTableWriter<R>> {
    const codec = o.codec ?? "zstd";
    return new ParquetTableWriter<R>(sink, schema, codec, await compressorsFor(codec), o);
  }

  /** Rows written so far (including those waiting for their row group to close). */
  get count(): number {
    return this.rows;
  }

  async write(rows: Iterable<R>): Promise<void> {
    for (const r of rows) {
      const row = r as Row;
      this.pending.push(row);
      this.pendingBytes += rowBytes(this.schema.columns, row);
      this.rows++;
      if (this.pending.length >= this.maxRows || this.pendingBytes >= this.maxBytes)
        await this.closeRowGroup();
    }
  }

  async finish(): Promise<number> {
    await this.closeRowGroup();
    await this.writer.finish();
    return this.rows;
  }

  private async closeRowGroup(): Promise<void> {
    const rows = this.pending;
    if (rows.length === 0) return;
    this.pending = [];
    this.pendingBytes = 0;
    const columnData = this.schema.columns.map((c) => ({
      name: c.name,
      data: columnValues(this.schema, c, rows),
    }));
    await this.writer.write({ columnData, rowGroupSize: rows.length });
  }
}

/**
 * Writes `batches` of rows as a Parquet file at `target` (`-`: stdout), atomically; returns the
 * number of rows.
 */
export async function writeParquet<R extends object>(
  target: string,
  schema: TableSchema,
  batches: AsyncIterable<Iterable<R>> | Iterable<Iterable<R>>,
  o: ParquetWriteOptions = {},
): Promise<number> {
  let n = 0;
  await writeAtomic(target, async (sink) => {
    const w = await ParquetTableWriter.open<R>(sink, schema, o);
    for await (const b of batches) await w.write(b);
    n = await w.finish();
  });
  return n;
}

function scalarBytes(type: ScalarType, v: unknown): number {
  return type === "string" && typeof v === "string" ? v.length + 4 : 8;
}

/** About how many bytes a row's values take (string lengths in UTF-16 units: an estimate is enough). */
function rowBytes(columns: readonly ColumnSpec[], row: Row): number {
  let n = 0;
  for (const c of columns) {
    const v = row[c.name];
    if (c.type !== "list") n += scalarBytes(c.type, v);
    else if (Array.isArray(v)) {
      if ("element" in c) for (const x of v) n += scalarBytes(c.element, x);
      else
        for (const x of v as Row[])
          for (const f of c.fields) n += scalarBytes(f.type, (x as Row | null | undefined)?.[f.name]);
    }
  }
  return n;
}

function bad(schema: TableSchema, column: string, expected: string, v: unknown): never {
  throw new TypeError(
    `${schema.what}: column ${column} expected ${expected}, got ${JSON.stringify(v) ?? String(v)}`,
  );
}

/** A value as hyparquet-writer takes it for the type (int64 as bigint), checked. */
function scalarValue(
  schema: TableSchema,
  column: string,
  type: ScalarType,
  nullable: boolean,
  v: unknown,
): unknown {
  if (v === null || v === undefined) return nullable ? null : bad(schema, column, type, v);
  switch (type) {
    case "string":
      return typeof v === "string" ? v : bad(schema, column, type, v);
    case "int64":
      return Number.isSafeInteger(v) ? BigInt(v as number) : bad(schema, column, "a safe integer", v);
    case "double":
      return typeof v === "number" ? v : bad(schema, column, type, v);
    case "boolean":
      return typeof v === "boolean" ? v : bad(schema, column, type, v);
  }
}

function columnValues(schema: TableSchema, c: ColumnSpec, rows: readonly Row[]): unknown[] {
  const out = new Array<unknown>(rows.length);
  if (c.type !== "list") {
    const nullable = c.nullable === true;
    for (let i = 0; i < rows.length; i++)
      out[i] = scalarValue(schema, c.name, c.type, nullable, rows[i]![c.name]);
    return out;
  }
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i]![c.name];
    if (!Array.isArray(v)) bad(schema, c.name, "a list", v);
    if ("element" in c) out[i] = v.map((x) => scalarValue(schema, c.name, c.element, false, x));
    else
      out[i] = (v as unknown[]).map((x) => {
        if (typeof x !== "object" || x === null) bad(schema, c.name, "a struct", x);
        const s: Record<string, unknown> = {};
        for (const f of c.fields)
          s[f.name] = scalarValue(
            schema,
            `${c.name}.${f.name}`,
            f.type,
            f.nullable === true,
            (x as Row)[f.name],
          );
        return s;
      });
  }
  return out;
}
