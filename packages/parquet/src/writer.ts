// Writing a table as Parquet while its rows come: one row group at a time into a byte sink.
import { type ByteSink, writeAtomic } from "@convkit/io";
import type { Codec } from "./codec.js";
import { openFileEncoder } from "./file-encoder.js";
import type { FileEncoder, Row } from "./file-encoding.js";
import type { ColumnSpec, ScalarType, TableSchema } from "./schema.js";

export interface ParquetWriteOptions {
  /** Page compression; zstd by default (what the Hugging Face hub and DuckDB default to). */
  codec?: Codec;
  /** A row group closes at this many rows… */
  rowGroupRows?: number;
  /** …or once its values hold about this many bytes (memory is bounded by one row group). */
  rowGroupBytes?: number;
}

const DEFAULT_ROW_GROUP_ROWS = 128 * 1024;
const DEFAULT_ROW_GROUP_BYTES = 16 << 20;

/**
 * A Parquet file being written: `write` takes rows in order and closes a row group whenever it
 * is full (by rows or by bytes: both counted from the data, so the same rows make the same row
 * groups); `finish` writes the last one and the footer. Rows are checked against the schema as
 * they are turned into columns: a value of the wrong type is a bug of the caller, not user input.
 */
export class ParquetTableWriter<R extends object> {
  private pending: Row[] = [];
  private pendingBytes = 0;
  private rows = 0;
  private readonly maxRows: number;
  private readonly maxBytes: number;

  private constructor(
    private readonly file: FileEncoder,
    private readonly schema: TableSchema,
    o: ParquetWriteOptions,
  ) {
    this.maxRows = o.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
    this.maxBytes = o.rowGroupBytes ?? DEFAULT_ROW_GROUP_BYTES;
  }

  static async open<R extends object>(
    sink: ByteSink,
    schema: TableSchema,
    o: ParquetWriteOptions = {},
  ): Promise<ParquetTableWriter<R>> {
    return new ParquetTableWriter<R>(
      await openFileEncoder(sink, schema, o.codec ?? "zstd", "fast"),
      schema,
      o,
    );
  }

  /** A writer over the reference encoder (hyparquet-writer's own), for differential tests. */
  static async openReference<R extends object>(
    sink: ByteSink,
    schema: TableSchema,
    o: ParquetWriteOptions = {},
  ): Promise<ParquetTableWriter<R>> {
    return new ParquetTableWriter<R>(
      await openFileEncoder(sink, schema, o.codec ?? "zstd", "reference"),
      schema,
      o,
    );
  }

  /** Rows written so far (including those waiting for their row group to close). */
  get count(): number {
    return this.rows;
  }

  async write(rows: Iterable<R>): Promise<void> {
    const columns = this.schema.columns;
    for (const r of rows) {
      const row = r as Row;
      this.pending.push(row);
      // Every 16th row's size stands for its 16 (an estimate bounds memory; counted from the
      // data, so the same rows still make the same row groups).
      if ((this.rows & 15) === 0) this.pendingBytes += 16 * rowBytes(columns, row);
      this.rows++;
      if (this.pending.length >= this.maxRows || this.pendingBytes >= this.maxBytes)
        await this.closeRowGroup();
    }
  }

  async finish(): Promise<number> {
    await this.closeRowGroup();
    await this.file.finish();
    return this.rows;
  }

  private async closeRowGroup(): Promise<void> {
    const rows = this.pending;
    if (rows.length === 0) return;
    this.pending = [];
    this.pendingBytes = 0;
    await this.file.writeRowGroup(rows);
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
