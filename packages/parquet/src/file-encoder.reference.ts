// The reference encoder: hyparquet-writer's own ParquetWriter (Dremel levels, its dictionary and
// page choices, data page v2), fed the same rows. Plain and general; the fast path (encoder.ts)
// must give the same table (encoder.test.ts), not the same bytes.
import type { ByteSink } from "@convkit/io";
import type { CompressionCodec } from "hyparquet";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { type Columns, columnOf, type FileEncoder, type Row, sliceOf } from "./file-encoding.js";
import { checkScalar } from "./levels.js";
import { type ColumnSpec, type ScalarType, schemaElements, type TableSchema } from "./schema.js";

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

export class ReferenceFile implements FileEncoder {
  private readonly writer: ParquetWriter;
  /** The pending row group: the rows handed in, as they came. */
  private parts: Columns[] = [];
  private readonly names: string[];
  constructor(
    sink: ByteSink,
    private readonly schema: TableSchema,
    codec: CompressionCodec,
    compressors: { ZSTD?: (b: Uint8Array) => Uint8Array },
    createdBy: string,
  ) {
    this.writer = new ParquetWriter({
      writer: new SinkWriter(sink),
      schema: schemaElements(schema),
      codec,
      compressors,
      createdBy,
    });
    this.names = schema.columns.map((c) => c.name);
  }

  append(batch: Readonly<Columns>, from: number, to: number): void {
    this.parts.push(sliceOf(batch, this.names, from, to));
  }

  async writeRowGroup(rows: number): Promise<void> {
    const parts = this.parts;
    this.parts = [];
    const columnData = this.schema.columns.map((c) => ({
      name: c.name,
      data: columnValues(
        this.schema,
        c,
        parts.flatMap((p) => columnOf(p, c.name)),
      ),
    }));
    await this.writer.write({ columnData, rowGroupSize: rows });
  }

  async finish(): Promise<void> {
    await this.writer.finish();
  }
}

/** A value as hyparquet-writer takes it for the type (int64 as bigint), checked. */
function scalarValue(
  schema: TableSchema,
  column: string,
  type: ScalarType,
  nullable: boolean,
  v: unknown,
): unknown {
  if ((v === null || v === undefined) && nullable) return null;
  checkScalar(schema, column, type, v);
  return type === "int64" ? BigInt(v as number) : v;
}

function columnValues(schema: TableSchema, c: ColumnSpec, column: readonly unknown[]): unknown[] {
  if (c.type !== "list")
    return column.map((v) => scalarValue(schema, c.name, c.type, c.nullable === true, v));
  return column.map((list) => {
    const v = list as unknown[];
    if ("element" in c) return v.map((x) => scalarValue(schema, c.name, c.element, false, x));
    return v.map((x) => {
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
  });
}
