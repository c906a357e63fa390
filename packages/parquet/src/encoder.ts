// The fast path: a row group's column chunks (chunk-builder.ts) written as Parquet pages (data page
// v1, dictionary pages where a dictionary is smaller than plain values, RLE/bit-packed levels and
// indexes). Its plain reference is hyparquet-writer's own column writer
// (file-encoder.reference.ts); encoder.test.ts checks
// the two give the same table on seeded schemas and rows. Page headers and the footer go through
// hyparquet-writer's thrift serializer, shared by both.
import type { ColumnChunk, CompressionCodec, Encoding, ParquetType } from "hyparquet";
import { ByteWriter } from "hyparquet-writer";
import { writePageHeader } from "hyparquet-writer/src/datapage.js";
import { Bytes } from "./bytes.js";
import { bitWidth, type ChunkBuilder } from "./chunk-builder.js";
import type { ScalarType } from "./schema.js";

/**
 * RLE / bit-packed hybrid: runs of 8 or more equal values as RLE runs, the rest bit-packed in
 * groups of 8 (the last group padded with zeros; readers stop at the page's value count).
 */
function writeHybrid(out: Bytes, values: ArrayLike<number>, from: number, to: number, width: number): void {
  const byteWidth = (width + 7) >> 3;
  let i = from;
  let groupsStart = -1;
  let groups = 0;
  const flushGroups = () => {
    if (groups === 0) return;
    out.varint((groups << 1) | 1);
    const bytes = groups * width;
    out.ensure(bytes);
    const base = out.len;
    out.buf.fill(0, base, base + bytes);
    let bit = 0;
    for (let k = groupsStart, end = groupsStart + groups * 8; k < end; k++) {
      let v = k < to ? values[k]! : 0;
      let left = width;
      while (left > 0) {
        const at = base + (bit >> 3);
        const off = bit & 7;
        const take = Math.min(8 - off, left);
        out.buf[at]! |= (v & ((1 << take) - 1)) << off;
        v >>>= take;
        left -= take;
        bit += take;
      }
    }
    out.len = base + bytes;
    groups = 0;
  };
  while (i < to) {
    const v = values[i]!;
    let run = 1;
    while (i + run < to && values[i + run] === v) run++;
    if (run >= 8) {
      flushGroups();
      out.varint(run << 1);
      for (let b = 0; b < byteWidth; b++) out.u8((v >>> (8 * b)) & 0xff);
      i += run;
    } else {
      if (groups === 0) groupsStart = i;
      groups++;
      i += 8;
    }
  }
  flushGroups();
}

const PHYSICAL: Record<ScalarType, ParquetType> = {
  string: "BYTE_ARRAY",
  int64: "INT64",
  double: "DOUBLE",
  boolean: "BOOLEAN",
};

/** Target bytes of a data page's values before compression (as pyarrow's data_pagesize). */
const PAGE_BYTES = 1 << 20;

export type Compress = (bytes: Uint8Array) => Uint8Array;

/** Where a chunk's pages go: the file, whose next byte is at `offset` (`write` moves it on). */
export interface PageSink {
  readonly offset: number;
  write(bytes: Uint8Array): Promise<void>;
}

/** One page's header, serialized (thrift) and copied out. */
const headerBytes = new ByteWriter(256);

/**
 * Writes a page (header, then the body compressed) and returns its uncompressed size with header.
 * Page by page to the file: a row group's pages are never held together (memory is the pending
 * rows' encoded values and one page).
 */
async function page(
  out: PageSink,
  body: Uint8Array,
  compress: Compress | undefined,
  header: () => object,
): Promise<number> {
  // A sink may hold bytes until it flushes: the body (a reused buffer) goes out as a copy
  // unless compression made a new one.
  const packed = compress ? compress(body) : new Uint8Array(body);
  headerBytes.index = 0;
  headerBytes.offset = 0;
  writePageHeader(headerBytes, {
    ...header(),
    uncompressed_page_size: body.length,
    compressed_page_size: packed.length,
  } as never);
  const head = headerBytes.getBytes().slice();
  await out.write(head);
  await out.write(packed);
  return head.length + body.length;
}

// Shared by every writer, also by writers whose pages interleave at page()'s awaits: safe, as each
// body is compressed or copied before page() first awaits, and filled again only after.
const scratch = new Bytes();
const levelScratch = new Bytes();

/** Values `from` to `to` of a chunk as a PLAIN page body (booleans bit-packed). */
function writePlain(out: Bytes, chunk: ChunkBuilder, from: number, to: number): void {
  if (chunk.type !== "boolean") {
    const [a, b] = [chunk.start(from), chunk.start(to)];
    out.ensure(b - a);
    chunk.plain.buf.copy(out.buf, out.len, a, b);
    out.len += b - a;
    return;
  }
  const n = to - from;
  out.ensure((n + 7) >> 3);
  const base = out.len;
  out.buf.fill(0, base, base + ((n + 7) >> 3));
  const bits = chunk.plain.buf;
  for (let i = 0; i < n; i++) if (bits[from + i]) out.buf[base + (i >> 3)]! |= 1 << (i & 7);
  out.len = base + ((n + 7) >> 3);
}

/** Writes one leaf's column chunk (dictionary page, data pages) and returns its metadata. */
export async function writeChunk(
  out: PageSink,
  chunk: ChunkBuilder,
  codec: CompressionCodec,
  compress: Compress | undefined,
): Promise<ColumnChunk> {
  const chunkStart = out.offset;
  let uncompressed = 0;
  const encodings: Encoding[] = [];
  const dict = chunk.settle();
  let dictionaryOffset: bigint | undefined;
  if (dict) {
    dictionaryOffset = BigInt(chunkStart);
    uncompressed += await page(out, chunk.keysPlain.view(), compress, () => ({
      type: "DICTIONARY_PAGE",
      dictionary_page_header: { num_values: chunk.keyCount, encoding: "PLAIN" },
    }));
    encodings.push("PLAIN", "RLE", "RLE_DICTIONARY");
  } else encodings.push("PLAIN", "RLE");
  const dataOffset = out.offset;
  const width = dict ? bitWidth(chunk.keyCount - 1) : 0;
  const rowStarts = chunk.rowStarts;
  const def = chunk.def.a;
  const rows = chunk.rowStarts.len - 1;
  let row = 0;
  let value = 0;
  while (row < rows) {
    // A page holds whole rows, about PAGE_BYTES of values.
    const firstEntry = rowStarts.get(row);
    const firstValue = value;
    let bytes = 0;
    let lastEntry = firstEntry;
    while (row < rows && (bytes < PAGE_BYTES || lastEntry === firstEntry)) {
      const end = rowStarts.get(row + 1);
      for (let e = lastEntry; e < end; e++) {
        if (chunk.maxDef === 0 || def[e] === chunk.maxDef) {
          bytes += dict ? 2 : chunk.plainSize(value);
          value++;
        }
      }
      lastEntry = end;
      row++;
    }
    scratch.reset();
    for (const [levels, max] of [
      [chunk.rep.a, chunk.maxRep],
      [def, chunk.maxDef],
    ] as const) {
      if (max === 0) continue;
      levelScratch.reset();
      writeHybrid(levelScratch, levels, firstEntry, lastEntry, bitWidth(max));
      scratch.u32(levelScratch.len);
      scratch.ensure(levelScratch.len);
      levelScratch.buf.copy(scratch.buf, scratch.len, 0, levelScratch.len);
      scratch.len += levelScratch.len;
    }
    if (dict) {
      scratch.u8(width);
      writeHybrid(scratch, chunk.indexes.a, firstValue, value, width);
    } else writePlain(scratch, chunk, firstValue, value);
    uncompressed += await page(out, scratch.view(), compress, () => ({
      type: "DATA_PAGE",
      data_page_header: {
        num_values: lastEntry - firstEntry,
        encoding: dict ? "RLE_DICTIONARY" : "PLAIN",
        definition_level_encoding: "RLE",
        repetition_level_encoding: "RLE",
      },
    }));
  }
  const compressed = out.offset - chunkStart;
  return {
    file_offset: BigInt(chunkStart),
    meta_data: {
      type: PHYSICAL[chunk.type],
      encodings,
      path_in_schema: chunk.path,
      codec,
      num_values: BigInt(chunk.entries),
      total_uncompressed_size: BigInt(uncompressed),
      total_compressed_size: BigInt(compressed),
      data_page_offset: BigInt(dataOffset),
      ...(dictionaryOffset === undefined ? {} : { dictionary_page_offset: dictionaryOffset }),
    },
  };
}
