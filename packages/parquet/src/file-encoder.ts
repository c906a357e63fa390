// A file's encoding: the fast path (encoder.ts's pages) or its reference (file-encoder.reference.ts),
// behind one interface, and the footer both end with.
import type { ByteSink } from "@convkit/io";
import type { ColumnChunk, CompressionCodec, RowGroup } from "hyparquet";
import { ByteWriter } from "hyparquet-writer";
import { writeMetadata } from "hyparquet-writer/src/metadata.js";
import { snappyCompress as snappy } from "hyparquet-writer/src/snappy.js";
import { type Codec, compressorsFor } from "./codec.js";
import { writeChunk } from "./encoder.js";
import { ReferenceFile } from "./file-encoder.reference.js";
import type { Columns, FileEncoder } from "./file-encoding.js";
import { leavesOf } from "./levels.js";
import { schemaElements, type TableSchema } from "./schema.js";

/** What every file says wrote it: fixed, so that the same rows give the same bytes on every run. */
export const CREATED_BY = "convkit version 0.1.0";

const CODEC_NAMES: Record<Codec, CompressionCodec> = {
  zstd: "ZSTD",
  snappy: "SNAPPY",
  none: "UNCOMPRESSED",
};

/** The fast path: encoder.ts's pages, hyparquet-writer's thrift footer. */
class FastFile implements FileEncoder {
  private offset = 4;
  private readonly groups: RowGroup[] = [];
  private rows = 0;
  private started = false;
  constructor(
    private readonly sink: ByteSink,
    private readonly schema: TableSchema,
    private readonly codec: Codec,
    private readonly compress: ((b: Uint8Array) => Uint8Array) | undefined,
  ) {}

  private async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.sink.write(Buffer.from("PAR1"));
  }

  async writeRowGroup(columns: Columns, rows: number): Promise<void> {
    await this.start();
    const chunks: ColumnChunk[] = [];
    const groupOffset = this.offset;
    let uncompressed = 0n;
    // Each column chunk goes to the sink once encoded: memory holds the rows and one chunk.
    for (const leaf of leavesOf(this.schema, columns)) {
      const out = new ByteWriter(1 << 16);
      const chunk = writeChunk({ base: this.offset, out }, leaf, CODEC_NAMES[this.codec], this.compress);
      uncompressed += chunk.meta_data?.total_uncompressed_size ?? 0n;
      chunks.push(chunk);
      this.offset += out.offset;
      await this.sink.write(out.getBytes());
    }
    this.groups.push({
      columns: chunks,
      total_byte_size: uncompressed,
      num_rows: BigInt(rows),
      file_offset: BigInt(groupOffset),
      total_compressed_size: BigInt(this.offset - groupOffset),
    });
    this.rows += rows;
  }

  async finish(): Promise<void> {
    await this.start();
    const out = new ByteWriter(1 << 12);
    writeMetadata(out, {
      version: 2,
      schema: schemaElements(this.schema),
      num_rows: BigInt(this.rows),
      row_groups: this.groups,
      created_by: CREATED_BY,
      metadata_length: 0,
    });
    out.appendUint32(0x31524150);
    await this.sink.write(out.getBytes().slice());
  }
}

export async function openFileEncoder(
  sink: ByteSink,
  schema: TableSchema,
  codec: Codec,
  kind: "fast" | "reference",
): Promise<FileEncoder> {
  const compressors = await compressorsFor(codec);
  if (kind === "reference")
    return new ReferenceFile(sink, schema, CODEC_NAMES[codec], compressors, CREATED_BY);
  return new FastFile(sink, schema, codec, compressors.ZSTD ?? (codec === "snappy" ? snappy : undefined));
}
