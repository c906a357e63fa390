// Parquet files that lie (issue #41): a footer whose sizes are false, a page header claiming 2 GB,
// a zstd frame claiming 4 GB, a truncated file. Each is refused with one line naming the file
// before anything of the claimed size is allocated; through convkit-trec-eval: exit 2, no output.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "@convkit/test-helpers";
import { type FileMetaData, parquetMetadata } from "hyparquet";
import { parquetHeader } from "hyparquet/src/column.js";
import { ByteWriter } from "hyparquet-writer";
import { writePageHeader } from "hyparquet-writer/src/datapage.js";
import { writeMetadata } from "hyparquet-writer/src/metadata.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { Codec } from "./codec.js";
import { openParquet } from "./reader.js";
import type { TableSchema } from "./schema.js";
import { writeParquet } from "./writer.js";

/** A run table (formats' RUN_ENTRY_SCHEMA; this package cannot import formats). */
const RUN: TableSchema = {
  what: "run line",
  columns: [
    { name: "qid", type: "string" },
    { name: "q0", type: "string" },
    { name: "docno", type: "string" },
    { name: "rank", type: "int64" },
    { name: "score", type: "double" },
    { name: "tag", type: "string" },
  ],
};

const ROWS = Array.from({ length: 3000 }, (_, i) => ({
  qid: String(300 + Math.floor(i / 100)),
  q0: "Q0",
  // Long docnos: the docno column's dictionary page is some 100 KB (a 4-byte zstd content size).
  docno: `DOC-${(i * 7919) % 5000}-${"x".repeat(40)}`,
  rank: (i % 100) + 1,
  score: 100 - (i % 100) / 3,
  tag: "lies",
}));

function split(file: Buffer): { meta: FileMetaData; data: Buffer } {
  const ab = file.buffer.slice(file.byteOffset, file.byteOffset + file.length) as ArrayBuffer;
  const metaLen = file.readUInt32LE(file.length - 8);
  return { meta: parquetMetadata(ab), data: file.subarray(0, file.length - 8 - metaLen) };
}

function join4(data: Uint8Array, meta: FileMetaData): Buffer {
  const w = new ByteWriter();
  writeMetadata(w, meta);
  const m = new Uint8Array(w.getBytes());
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(m.length, 0);
  tail.write("PAR1", 4, "latin1");
  return Buffer.concat([data, m, tail]);
}

/** The last column chunk's first page: its header rewritten by `lie`, the footer's offsets kept true. */
function lyingPage(file: Buffer, lie: (h: ReturnType<typeof parquetHeader>) => void): Buffer {
  const { meta, data } = split(file);
  const md = meta.row_groups.at(-1)!.columns.at(-1)!.meta_data!;
  const start = Number(md.dictionary_page_offset ?? md.data_page_offset);
  const reader = { view: new DataView(data.buffer, data.byteOffset + start), offset: 0 };
  const header = parquetHeader(reader);
  lie(header);
  const w = new ByteWriter();
  writePageHeader(w, header);
  const h = new Uint8Array(w.getBytes());
  const delta = h.length - reader.offset;
  md.total_compressed_size = BigInt(Number(md.total_compressed_size) + delta);
  if (md.dictionary_page_offset !== undefined)
    md.data_page_offset = BigInt(Number(md.data_page_offset) + delta);
  return join4(Buffer.concat([data.subarray(0, start), h, data.subarray(start + reader.offset)]), meta);
}

/** The zstd frame of the docno chunk's first page (its dictionary) claiming `size` bytes of content. */
function lyingZstdFrame(file: Buffer, size: number): Buffer {
  const { meta } = split(file);
  const md = meta.row_groups[0]!.columns[2]!.meta_data!;
  const start = Number(md.dictionary_page_offset ?? md.data_page_offset);
  const reader = { view: new DataView(file.buffer, file.byteOffset + start), offset: 0 };
  parquetHeader(reader);
  const frame = start + reader.offset;
  expect(file.readUInt32LE(frame)).toBe(0xfd2fb528);
  const fhd = file[frame + 4]!;
  const out = Buffer.from(file);
  // Frame content size of 4 bytes (the flag 2) placed after the header byte (single segment).
  expect(fhd & 0x20).toBe(0x20);
  out[frame + 4] = (fhd & 0x3f) | 0x80;
  const fcsBytes = [1, 2, 4, 8][fhd >> 6]!;
  expect(fcsBytes).toBe(4); // a page of 64 KiB..4 GiB, as the docnos' dictionary is
  out.writeUInt32LE(size, frame + 5 + [0, 1, 2, 4][fhd & 3]!);
  return out;
}

async function readAll(path: string): Promise<number> {
  let n = 0;
  for await (const b of (await openParquet(path)).batches(RUN)) n += b.length;
  return n;
}

describe("Parquet files that lie", () => {
  let dir: string;
  const file = (codec: Codec) => join(dir, `${codec}.parquet`);
  beforeAll(async () => {
    dir = tempDir("parquet-lies-");
    for (const codec of ["zstd", "snappy", "none"] as const)
      await writeParquet(file(codec), RUN, [ROWS], { codec });
  });

  it("the honest files read back whole", async () => {
    for (const codec of ["zstd", "snappy", "none"] as const)
      expect(await readAll(file(codec))).toBe(ROWS.length);
  });

  it("a page header claiming 2 GB uncompressed: refused before it is allocated (snappy, zstd, none)", async () => {
    for (const codec of ["snappy", "zstd", "none"] as const) {
      const path = join(dir, `page-${codec}.parquet`);
      writeFileSync(
        path,
        lyingPage(readFileSync(file(codec)), (h) => {
          h.uncompressed_page_size = 2 ** 31 - 1;
        }),
      );
      const before = process.memoryUsage().arrayBuffers;
      const e = await readAll(path).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(String(e), codec).toMatch(
        codec === "none"
          ? new RegExp(
              `^InputError: ${path}: expected a Parquet file with an intact footer, schema and pages, found a file that cannot be read as one .*2147483647`,
            )
          : new RegExp(
              `^InputError: ${path}: expected a page of at most \\d+ bytes uncompressed, found one claiming 2147483647$`,
            ),
      );
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
    }
  });

  it("a zstd frame claiming 1.5 GB within an honest page: refused before fzstd allocates it", async () => {
    const path = join(dir, "frame.parquet");
    writeFileSync(path, lyingZstdFrame(readFileSync(file("zstd")), 0x6000_0000));
    const before = process.memoryUsage().arrayBuffers;
    await expect(readAll(path)).rejects.toThrow(
      /expected zstd frames of at most \d+ bytes, found frames claiming 1610612736$/,
    );
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
  });

  it("a row group claiming 1 TB uncompressed: refused by the input limit before any page", async () => {
    const { meta, data } = split(readFileSync(file("zstd")));
    for (const c of meta.row_groups[0]!.columns) c.meta_data!.total_uncompressed_size = 2n ** 40n;
    const path = join(dir, "group.parquet");
    writeFileSync(path, join4(data, meta));
    await expect(readAll(path)).rejects.toThrow(/expected at most .* bytes to hold whole/);
  });

  it("a row group claiming more rows than its chunks hold, or past the limit: refused before reading", async () => {
    const cases: [bigint, RegExp][] = [
      [
        5000n,
        /expected a column chunk with a value for each of its row group's 5000 rows, found 3000 values in column qid$/,
      ],
      [
        2n ** 28n,
        /expected row groups of at most 33554432 rows \(raise with --max-input-bytes\), found one claiming 268435456$/,
      ],
      [2n ** 40n, /expected row groups of at most 33554432 rows/],
    ];
    for (const [rows, message] of cases) {
      const { meta, data } = split(readFileSync(file("zstd")));
      meta.num_rows = rows;
      meta.row_groups[0]!.num_rows = rows;
      const path = join(dir, `rows-${rows}.parquet`);
      writeFileSync(path, join4(data, meta));
      await expect(readAll(path)).rejects.toThrow(message);
    }
  });

  it("through convkit-trec-eval: one line naming the file, exit 2, nothing on stdout", () => {
    const qrels = join(dir, "qrels");
    writeFileSync(qrels, "300 0 DOC-1 1\n");
    const honest = readFileSync(file("snappy"));
    const metaLen = honest.readUInt32LE(honest.length - 8);
    const cases: [string, Buffer, RegExp][] = [
      [
        "truncated",
        honest.subarray(0, honest.length - 100),
        /expected a Parquet file with an intact footer, schema and pages, found a file that cannot be read as one/,
      ],
      [
        "only its head",
        honest.subarray(0, 4),
        /expected a Parquet file with an intact footer, schema and pages, found a file that cannot be read as one/,
      ],
      [
        "metadata length past the start",
        Buffer.concat([
          honest.subarray(0, honest.length - 8),
          Buffer.from([0xf0, 0xff, 0xff, 0x7f]),
          Buffer.from("PAR1"),
        ]),
        /expected a Parquet file with an intact footer, schema and pages, found a file that cannot be read as one .*metadata length/,
      ],
      [
        "metadata length off by some",
        (() => {
          const b = Buffer.from(honest);
          b.writeUInt32LE(metaLen - 7, b.length - 8);
          return b;
        })(),
        /expected a Parquet file with an intact footer, schema and pages, found a file that cannot be read as one/,
      ],
      [
        "a page claiming 2 GB",
        lyingPage(honest, (h) => {
          h.uncompressed_page_size = 2 ** 31 - 1;
        }),
        /expected a page of at most \d+ bytes uncompressed, found one claiming 2147483647$/,
      ],
    ];
    for (const [what, bytes, message] of cases) {
      const path = join(dir, `cli-${what.replace(/\W+/g, "-")}.parquet`);
      writeFileSync(path, bytes);
      const r = runCli("trec-eval", [qrels, path]);
      expect(r.code, what).toBe(2);
      expect(r.stdout, what).toBe("");
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines, what).toHaveLength(1);
      expect(lines[0], what).toMatch(new RegExp(`^${path}: `));
      expect(lines[0], what).toMatch(message);
    }
  });
});
