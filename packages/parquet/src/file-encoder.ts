// A file's encoding: the fast path (encoder.ts's pages) or its reference (file-encoder.reference.ts),
// behind one interface, and the footer both end with.
import type { ByteSink } from "@convkit/io";
import type { ColumnChunk, CompressionCodec, RowGroup } from "hyparquet";
import { ByteWriter } from "hyparquet-writer";
import { writeMetadata } from "hyparquet-writer/src/metadata.js";
import { snappyCompress as snappy } from "hyparquet-writer/src/snappy.js";
import { ChunkBuilder } from "./chunk-builder.js";
import { type Codec, compressorsFor } from "./codec.js";
import { type PageSink, writeChunk } from "./encoder.js";
import { ReferenceFile } from "./file-encoder.reference.js";
import { type Columns, type FileEncoder, sliceOf } from "./file-encoding.js";
import { leavesOf } from "./levels.js";
import { schemaElements, type TableSchema } from "./schema.js";

/** What every file says wrote it: fixed, so that the same rows give the same bytes on every run. */
export const CREATED_BY = "convkit version 0.1.0";

const CODEC_NAMES: Record<Codec, CompressionCodec> = {
  zstd: "ZSTD",
  snappy: "SNAPPY",
  none: "UNCOMPRESSED",
};

/** The file's bytes as they go to the sink, counted (pages record their offsets). */
class CountedSink implements PageSink {
  offset = 0;
  constructor(private readonly sink: ByteSink) {}
  async write(bytes: Uint8Array): Promise<void> {
    this.offset += bytes.length;
    await this.sink.write(bytes);
  }
}

/**
 * The fast path: rows encoded into each leaf's chunk as they come (chunk-builder.ts), written as
 * encoder.ts's pages when the row group closes; hyparquet-writer's thrift footer.
 */
class FastFile implements FileEncoder {
  /** The pending row group, one chunk per leaf in schema order (made by the first rows). */
  private readonly chunks: ChunkBuilder[] = [];
  private readonly names: string[];
  private readonly out: CountedSink;
  private readonly groups: RowGroup[] = [];
  private rows = 0;
  private started = false;
  constructor(
    sink: ByteSink,
    private readonly schema: TableSchema,
    private readonly codec: Codec,
    private readonly compress: ((b: Uint8Array) => Uint8Array) | undefined,
  ) {
    this.names = schema.columns.map((c) => c.name);
    this.out = new CountedSink(sink);
  }

  private async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.out.write(Buffer.from("PAR1"));
  }

  append(batch: Readonly<Columns>, from: number, to: number): void {
    let k = 0;
    for (const leaf of leavesOf(this.schema, sliceOf(batch, this.names, from, to))) {
      const chunk = this.chunks[k] ?? new ChunkBuilder(leaf);
      this.chunks[k++] = chunk;
      chunk.append(leaf);
    }
  }

  async writeRowGroup(rows: number): Promise<void> {
    await this.start();
    const chunks: ColumnChunk[] = [];
    const groupOffset = this.out.offset;
    let uncompressed = 0n;
    for (const pending of this.chunks) {
      const chunk = await writeChunk(this.out, pending, CODEC_NAMES[this.codec], this.compress);
      pending.reset();
      uncompressed += chunk.meta_data?.total_uncompressed_size ?? 0n;
      chunks.push(chunk);
    }
    this.groups.push({
      columns: chunks,
      total_byte_size: uncompressed,
      num_rows: BigInt(rows),
      file_offset: BigInt(groupOffset),
      total_compressed_size: BigInt(this.out.offset - groupOffset),
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
    await this.out.write(out.getBytes().slice());
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
