// The fast path: a row group's leaves encoded into Parquet pages (data page v1, dictionary pages
// where a dictionary is smaller than plain values, RLE/bit-packed levels and indexes). Its plain
// reference is hyparquet-writer's own column writer (reference-encoder.ts); encoder.test.ts checks
// the two give the same table on seeded schemas and rows. Page headers and the footer go through
// hyparquet-writer's thrift serializer, shared by both.
import type { ColumnChunk, CompressionCodec, Encoding, ParquetType } from "hyparquet";
import type { ByteWriter } from "hyparquet-writer";
import { writePageHeader } from "hyparquet-writer/src/datapage.js";
import type { Leaf } from "./levels.js";

/** A growable byte buffer for page bodies. */
class Bytes {
  buf = Buffer.allocUnsafe(1 << 16);
  len = 0;
  reset(): void {
    this.len = 0;
  }
  ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.len++] = v;
  }
  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.len);
    this.len += 4;
  }
  varint(v: number): void {
    this.ensure(5);
    while (v > 0x7f) {
      this.buf[this.len++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.len++] = v;
  }
  /** A safe integer as int64 little-endian, without a BigInt. */
  i64(v: number): void {
    this.ensure(8);
    const lo = v >>> 0;
    const hi = Math.floor((v - lo) / 0x1_0000_0000);
    this.buf.writeUInt32LE(lo, this.len);
    this.buf.writeInt32LE(hi | 0, this.len + 4);
    this.len += 8;
  }
  f64(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.len);
    this.len += 8;
  }
  /** A string as PLAIN byte array: 4-byte length, UTF-8 bytes. */
  str(s: string): void {
    this.ensure(4 + s.length * 3);
    const n = this.buf.write(s, this.len + 4, "utf8");
    this.buf.writeUInt32LE(n, this.len);
    this.len += 4 + n;
  }
  view(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

/** Bits needed for values up to `max`. */
function bitWidth(max: number): number {
  return max === 0 ? 0 : 32 - Math.clz32(max);
}

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

const PHYSICAL: Record<Leaf["type"], ParquetType> = {
  string: "BYTE_ARRAY",
  int64: "INT64",
  double: "DOUBLE",
  boolean: "BOOLEAN",
};

function writePlain(
  out: Bytes,
  type: Leaf["type"],
  values: readonly unknown[],
  from: number,
  to: number,
): void {
  switch (type) {
    case "string":
      for (let i = from; i < to; i++) out.str(values[i] as string);
      return;
    case "int64":
      for (let i = from; i < to; i++) out.i64(values[i] as number);
      return;
    case "double":
      for (let i = from; i < to; i++) out.f64(values[i] as number);
      return;
    case "boolean": {
      const n = to - from;
      out.ensure((n + 7) >> 3);
      const base = out.len;
      out.buf.fill(0, base, base + ((n + 7) >> 3));
      for (let i = 0; i < n; i++) if (values[from + i]) out.buf[base + (i >> 3)]! |= 1 << (i & 7);
      out.len = base + ((n + 7) >> 3);
      return;
    }
  }
}

function plainSize(type: Leaf["type"], v: unknown): number {
  return type === "string" ? 4 + Buffer.byteLength(v as string) : 8;
}

/** A dictionary for a leaf's values when it makes the chunk smaller than plain values, else undefined. */
function dictionaryOf(leaf: Leaf): { keys: unknown[]; indexes: Int32Array } | undefined {
  if (leaf.type === "boolean" || leaf.values.length === 0) return undefined;
  const ids = new Map<unknown, number>();
  const keys: unknown[] = [];
  const sizes: number[] = [];
  const indexes = new Int32Array(leaf.values.length);
  let dictBytes = 0;
  let plainBytes = 0;
  let previous: unknown = NEGATIVE_ZERO;
  let previousId = -1;
  for (let i = 0; i < leaf.values.length; i++) {
    const v = leaf.values[i];
    // Runs of one value (a topic's request, a context's history) skip the Map.
    if (v === previous && v !== 0) {
      plainBytes += sizes[previousId]!;
      indexes[i] = previousId;
      continue;
    }
    // A Map keys -0 and 0 as one (SameValueZero); a double column keeps them apart.
    const key = v === 0 && Object.is(v, -0) ? NEGATIVE_ZERO : v;
    let id = ids.get(key);
    if (id === undefined) {
      id = keys.length;
      ids.set(key, id);
      keys.push(v);
      sizes.push(plainSize(leaf.type, v));
      dictBytes += sizes[id]!;
      // pyarrow's dictionary page limit (1 MiB): past it, plain values.
      if (dictBytes > DICTIONARY_PAGE_LIMIT) return undefined;
    }
    plainBytes += sizes[id]!;
    indexes[i] = id;
    previous = v;
    previousId = id;
    // Mostly distinct values (ids): a dictionary cannot halve them; stop building it early.
    if (i === DICTIONARY_PROBE && keys.length > DICTIONARY_PROBE * 0.98) return undefined;
  }
  const indexBytes = (leaf.values.length * bitWidth(keys.length - 1)) / 8;
  return dictBytes + indexBytes < plainBytes ? { keys, indexes } : undefined;
}

const NEGATIVE_ZERO = Symbol("-0");
const DICTIONARY_PAGE_LIMIT = 1 << 20;
const DICTIONARY_PROBE = 4096;
/** Target bytes of a data page's values before compression (as pyarrow's data_pagesize). */
const PAGE_BYTES = 1 << 20;

export type Compress = (bytes: Uint8Array) => Uint8Array;

/** Where a chunk's pages go: the row group's bytes, at file offset `base + length`. */
export interface ChunkTarget {
  readonly base: number;
  readonly out: ByteWriter;
}

function page(
  target: ChunkTarget,
  body: Uint8Array,
  compress: Compress | undefined,
  header: () => object,
): { headerAndBody: number; uncompressed: number } {
  const packed = compress ? compress(body) : body;
  const start = target.out.offset;
  writePageHeader(target.out, {
    ...header(),
    uncompressed_page_size: body.length,
    compressed_page_size: packed.length,
  } as never);
  const headerBytes = target.out.offset - start;
  target.out.appendBytes(packed);
  return { headerAndBody: headerBytes + packed.length, uncompressed: headerBytes + body.length };
}

const scratch = new Bytes();
const levelScratch = new Bytes();

/** Writes one leaf's column chunk (dictionary page, data pages) and returns its metadata. */
export function writeChunk(
  target: ChunkTarget,
  leaf: Leaf,
  codec: CompressionCodec,
  compress: Compress | undefined,
): ColumnChunk {
  const chunkStart = target.base + target.out.offset;
  let uncompressed = 0;
  const encodings: Encoding[] = [];
  const dict = dictionaryOf(leaf);
  let dictionaryOffset: bigint | undefined;
  if (dict) {
    dictionaryOffset = BigInt(chunkStart);
    scratch.reset();
    writePlain(scratch, leaf.type, dict.keys, 0, dict.keys.length);
    uncompressed += page(target, scratch.view(), compress, () => ({
      type: "DICTIONARY_PAGE",
      dictionary_page_header: { num_values: dict.keys.length, encoding: "PLAIN" },
    })).uncompressed;
    encodings.push("PLAIN", "RLE", "RLE_DICTIONARY");
  } else encodings.push("PLAIN", "RLE");
  const dataOffset = target.base + target.out.offset;
  const width = dict ? bitWidth(dict.keys.length - 1) : 0;
  const rows = leaf.rowStarts.length - 1;
  let row = 0;
  let value = 0;
  while (row < rows) {
    // A page holds whole rows, about PAGE_BYTES of values.
    const firstEntry = leaf.rowStarts[row]!;
    const firstValue = value;
    let bytes = 0;
    let lastEntry = firstEntry;
    while (row < rows && (bytes < PAGE_BYTES || lastEntry === firstEntry)) {
      const end = leaf.rowStarts[row + 1]!;
      for (let e = lastEntry; e < end; e++) {
        if (leaf.maxDef === 0 || leaf.def[e] === leaf.maxDef) {
          bytes += dict ? 2 : plainSize(leaf.type, leaf.values[value]);
          value++;
        }
      }
      lastEntry = end;
      row++;
    }
    scratch.reset();
    for (const [levels, max] of [
      [leaf.rep, leaf.maxRep],
      [leaf.def, leaf.maxDef],
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
      writeHybrid(scratch, dict.indexes, firstValue, value, width);
    } else writePlain(scratch, leaf.type, leaf.values, firstValue, value);
    uncompressed += page(target, scratch.view(), compress, () => ({
      type: "DATA_PAGE",
      data_page_header: {
        num_values: lastEntry - firstEntry,
        encoding: dict ? "RLE_DICTIONARY" : "PLAIN",
        definition_level_encoding: "RLE",
        repetition_level_encoding: "RLE",
      },
    })).uncompressed;
  }
  const compressed = target.base + target.out.offset - chunkStart;
  return {
    file_offset: BigInt(chunkStart),
    meta_data: {
      type: PHYSICAL[leaf.type],
      encodings,
      path_in_schema: leaf.path,
      codec,
      num_values: BigInt(leaf.entries),
      total_uncompressed_size: BigInt(uncompressed),
      total_compressed_size: BigInt(compressed),
      data_page_offset: BigInt(dataOffset),
      ...(dictionaryOffset === undefined ? {} : { dictionary_page_offset: dictionaryOffset }),
    },
  };
}
