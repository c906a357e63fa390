// Writing a table as Parquet while its rows come: one row group at a time into a byte sink.
import { type ByteSink, UsageError, writeAtomic } from "@convkit/io";
import type { Codec } from "./codec.js";
import { openFileEncoder } from "./file-encoder.js";
import type { Columns, FileEncoder, Row } from "./file-encoding.js";
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
const DEFAULT_ROW_GROUP_BYTES = 8 << 20;

/**
 * A Parquet file being written: `write` takes rows in order (or `writeColumns` the same rows as
 * columns) and closes a row group whenever it is full (by rows or by bytes: both counted from the
 * data, row by row, so the same rows make the same row groups however they are batched); `finish`
 * writes the last one and the footer. Values are checked against the schema as they are encoded:
 * a value of the wrong type is a bug of the caller, not user input.
 */
export class ParquetTableWriter<R extends object> {
  private pendingRows = 0;
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

  /** Rows as objects keyed by column name. */
  async write(rows: Iterable<R>): Promise<void> {
    const list = Array.isArray(rows) ? (rows as readonly Row[]) : ([...rows] as Row[]);
    const batch: Columns = {};
    for (const c of this.schema.columns) {
      const values = new Array<unknown>(list.length);
      for (let i = 0; i < list.length; i++) values[i] = list[i]![c.name];
      batch[c.name] = values;
    }
    await this.writeColumns(batch);
  }

  /**
   * The same as {@link write} for rows given as columns (each column's values by name, all of one
   * length): no row object is made, which is what a producer of millions of rows wants. The
   * arrays may be kept until their row group is written (the reference encoder keeps them): the
   * caller must not change them.
   */
  async writeColumns(batch: Readonly<Columns>): Promise<void> {
    const columns = this.schema.columns;
    const [first] = columns;
    const n = first === undefined ? 0 : (batch[first.name]?.length ?? 0);
    for (const c of columns)
      if (batch[c.name]?.length !== n)
        throw new TypeError(
          `${this.schema.what}: column ${c.name} has ${batch[c.name]?.length ?? "no"} values, not ${n}`,
        );
    let from = 0;
    while (from < n) {
      // Rows up to the one that fills the row group.
      let to = from;
      let full = false;
      while (to < n && !full) full = this.count1(batch, to++);
      this.file.append(batch, from, to);
      from = to;
      if (full) await this.closeRowGroup();
    }
  }

  /** Counts one row (index `i` of `batch`) into the pending row group; whether the group is full. */
  private count1(batch: Readonly<Columns>, i: number): boolean {
    // Every 16th row's size stands for its 16 (an estimate bounds memory; counted from the data,
    // so the same rows still make the same row groups).
    if ((this.rows & 15) === 0) this.pendingBytes += 16 * rowBytes(this.schema.columns, batch, i);
    this.rows++;
    this.pendingRows++;
    return this.pendingRows >= this.maxRows || this.pendingBytes >= this.maxBytes;
  }

  async finish(): Promise<number> {
    await this.closeRowGroup();
    await this.file.finish();
    return this.rows;
  }

  private async closeRowGroup(): Promise<void> {
    const rows = this.pendingRows;
    if (rows === 0) return;
    this.pendingRows = 0;
    this.pendingBytes = 0;
    await this.file.writeRowGroup(rows);
    // A turn of the event loop per row group: a small file's pages reach the sink without waiting
    // on the disk (microtasks only), and a producer that hands over its rows at once would
    // otherwise encode all its row groups before a SIGTERM or SIGINT is seen.
    await new Promise<void>((resolve) => setImmediate(resolve));
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
  // Binary bytes on a terminal help no one and can garble it (as gzip refuses to, too).
  if (target === "-" && process.stdout.isTTY)
    throw new UsageError("refusing to write Parquet (binary) to a terminal: give -o FILE or redirect stdout");
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

/** About how many bytes row `i`'s values take (string lengths in UTF-16 units: an estimate is enough). */
function rowBytes(columns: readonly ColumnSpec[], batch: Readonly<Columns>, i: number): number {
  let n = 0;
  for (const c of columns) {
    const v = batch[c.name]![i];
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
