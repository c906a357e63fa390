// The Parquet writers bench/parquet-libraries.mjs compares (issue #41), each as a user of the
// library would write convkit's gen-synthetic records: same columns, int64 ids,
// conversation_context as list<struct<question, answer>> (the standard 3-level LIST), zstd, row
// groups of 100,000 rows. Run in a child process per measurement (see parquet-libraries.mjs):
//   node bench/cases/parquet-writers.mjs WRITER MODE LIBDIR IN_DIR OUT_DIR SPLITS OPTIONS_JSON
// and prints one JSON line {seconds, cpuSeconds, rows, maxRssMiB, recordsRssMiB}. CPU seconds (all
// threads of the process, user + system) are there because the machine is shared: they move far
// less than wall time when other work competes for the 2 cores.
import { createReadStream, createWriteStream, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const ROW_GROUP = 100_000;
const INTS = ["record_id", "topic_id", "context_id"];
const STRINGS = ["facet_id", "initial_request", "question", "answer"];
const ORDER = ["record_id", "topic_id", ...STRINGS, "conversation_context", "context_id"];

const mib = (kb) => kb / 1024;

/** Records of a JSONL file in batches of ROW_GROUP, parsed as they are read. */
async function* jsonlBatches(path) {
  let batch = [];
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    batch.push(JSON.parse(line));
    if (batch.length === ROW_GROUP) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function* slices(records) {
  for (let i = 0; i < records.length; i += ROW_GROUP) yield records.slice(i, i + ROW_GROUP);
}

async function load(lib, name) {
  const require = createRequire(join(lib, "package.json"));
  return import(pathToFileURL(require.resolve(name)).href);
}

// ---- hyparquet-writer: ParquetWriter, explicit schema, one write() per row group -----------------
const str = (name) => ({
  name,
  type: "BYTE_ARRAY",
  converted_type: "UTF8",
  logical_type: { type: "STRING" },
  repetition_type: "REQUIRED",
});
const int64 = (name) => ({ name, type: "INT64", repetition_type: "REQUIRED" });
const HYPARQUET_SCHEMA = [
  { name: "root", num_children: 8 },
  int64("record_id"),
  int64("topic_id"),
  ...STRINGS.map(str),
  {
    name: "conversation_context",
    repetition_type: "REQUIRED",
    converted_type: "LIST",
    logical_type: { type: "LIST" },
    num_children: 1,
  },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", repetition_type: "REQUIRED", num_children: 2 },
  str("question"),
  str("answer"),
  int64("context_id"),
];

async function hyparquet(lib, opts) {
  const hw = await load(lib, "hyparquet-writer");
  const level = opts.level ?? 3;
  let compress;
  if (opts.zstd === "zlib") {
    // node:zlib has zstd from Node 22.15 on; on Node 20 this writer is not available
    if (!zlib.zstdCompressSync) throw new Error(`node ${process.version} has no zlib.zstdCompressSync`);
    const params = { [zlib.constants.ZSTD_c_compressionLevel]: level };
    compress = (bytes) => new Uint8Array(zlib.zstdCompressSync(bytes, { params }));
  } else {
    const zstd = await load(lib, "@bokuweb/zstd-wasm");
    await zstd.init();
    compress = (bytes) => zstd.compress(bytes, level);
  }
  return async (batches, out) => {
    const writer = new hw.ParquetWriter({
      writer: hw.fileWriter(out),
      schema: HYPARQUET_SCHEMA,
      codec: "ZSTD",
      statistics: opts.statistics ?? true,
      compressors: { ZSTD: compress },
      createdBy: "convkit-bench",
    });
    const encoding = opts.forceDictionary ? "RLE_DICTIONARY" : undefined;
    for await (const records of batches) {
      const columnData = ORDER.map((name) => ({
        name,
        data: INTS.includes(name) ? records.map((r) => BigInt(r[name])) : records.map((r) => r[name]),
        encoding: STRINGS.includes(name) ? encoding : undefined,
      }));
      await writer.write({ columnData, rowGroupSize: ROW_GROUP, pageSize: opts.pageSize });
    }
    await writer.finish();
  };
}

// ---- parquet-wasm + apache-arrow: Arrow batches streamed through transformParquetStream ----------
async function parquetWasm(lib) {
  const arrow = await load(lib, "apache-arrow");
  const pw = await load(lib, "parquet-wasm/node");
  const { Field, List, Struct, Utf8, makeVector, vectorFromArray, tableToIPC } = arrow;
  const element = new Struct([
    new Field("question", new Utf8(), false),
    new Field("answer", new Utf8(), false),
  ]);
  const contextType = new List(new Field("element", element, false));
  const toWasm = (records) => {
    const columns = {};
    for (const name of ORDER) {
      if (INTS.includes(name))
        columns[name] = makeVector(BigInt64Array.from(records, (r) => BigInt(r[name])));
      else if (name === "conversation_context")
        columns[name] = vectorFromArray(
          records.map((r) => r[name]),
          contextType,
        );
      else
        columns[name] = vectorFromArray(
          records.map((r) => r[name]),
          new Utf8(),
        );
    }
    return pw.Table.fromIPCStream(tableToIPC(new arrow.Table(columns), "stream")).recordBatches();
  };
  return async (batches, out) => {
    const props = new pw.WriterPropertiesBuilder()
      .setCompression(pw.Compression.ZSTD)
      .setDictionaryEnabled(true)
      .setMaxRowGroupSize(ROW_GROUP)
      .setCreatedBy("convkit-bench")
      .build();
    async function* wasmBatches() {
      for await (const records of batches) yield* toWasm(records);
    }
    const bytes = await pw.transformParquetStream(ReadableStream.from(wasmBatches()), props);
    await bytes.pipeTo(Writable.toWeb(createWriteStream(out)));
  };
}

// ---- @duckdb/node-api: the appender into an in-memory table, then COPY TO; or DuckDB reads the JSONL
const DUCK_COLUMNS =
  "record_id BIGINT, topic_id BIGINT, facet_id VARCHAR, initial_request VARCHAR, question VARCHAR, answer VARCHAR, conversation_context STRUCT(question VARCHAR, answer VARCHAR)[], context_id BIGINT";
const COPY_OPTIONS = `(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${ROW_GROUP})`;

async function duckdb(lib, opts) {
  const d = await load(lib, "@duckdb/node-api");
  const instance = await d.DuckDBInstance.create(":memory:");
  const con = await instance.connect();
  const contextType = d.LIST(d.STRUCT({ question: d.VARCHAR, answer: d.VARCHAR }));
  const level = opts.level === undefined ? "" : `, COMPRESSION_LEVEL ${opts.level}`;
  const copyOptions = COPY_OPTIONS.replace(")", `${level})`);
  if (opts.readJson) {
    // DuckDB parses the JSONL itself: no record objects in JS at all
    const columns =
      "{record_id: 'BIGINT', topic_id: 'BIGINT', facet_id: 'VARCHAR', initial_request: 'VARCHAR', question: 'VARCHAR', answer: 'VARCHAR', conversation_context: 'STRUCT(question VARCHAR, answer VARCHAR)[]', context_id: 'BIGINT'}";
    return async (_batches, out, jsonl) => {
      await con.run(
        `COPY (SELECT * FROM read_json('${jsonl}', format = 'newline_delimited', columns = ${columns})) TO '${out}' ${copyOptions}`,
      );
    };
  }
  return async (batches, out) => {
    await con.run(`CREATE OR REPLACE TABLE t (${DUCK_COLUMNS})`);
    const appender = await con.createAppender("t");
    const types = [d.BIGINT, d.BIGINT, d.VARCHAR, d.VARCHAR, d.VARCHAR, d.VARCHAR, contextType, d.BIGINT];
    const context = (r) =>
      d.listValue(
        r.conversation_context.map((c) => d.structValue({ question: c.question, answer: c.answer })),
      );
    for await (const records of batches) {
      // a data chunk holds at most 2,048 rows (DuckDB's vector size)
      for (let i = 0; i < records.length; i += 2048) {
        const rows = records.slice(i, i + 2048);
        const chunk = d.DuckDBDataChunk.create(types, rows.length);
        chunk.setColumns(
          ORDER.map((name) => {
            if (INTS.includes(name)) return rows.map((r) => BigInt(r[name]));
            if (name === "conversation_context") return rows.map(context);
            return rows.map((r) => r[name]);
          }),
        );
        appender.appendDataChunk(chunk);
      }
    }
    appender.flushSync();
    appender.closeSync();
    await con.run(`COPY t TO '${out}' ${copyOptions}`);
    await con.run("DROP TABLE t");
  };
}

const WRITERS = { hyparquet, "parquet-wasm": parquetWasm, duckdb };

async function main() {
  const [writerName, mode, lib, inDir, outDir, splits, optsJson] = process.argv.slice(2);
  const opts = JSON.parse(optsJson ?? "{}");
  const write = await WRITERS[writerName](lib, opts);
  let seconds = 0;
  let cpuSeconds = 0;
  let rows = 0;
  let recordsRss = 0;
  for (const split of splits.split(",")) {
    const jsonl = join(inDir, `${split}_synthetic.jsonl`);
    const out = join(outDir, `${split}_synthetic.parquet`);
    let batches;
    if (mode === "memory") {
      const records = readFileSync(jsonl, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      rows += records.length;
      recordsRss = Math.max(recordsRss, process.memoryUsage().rss / 2 ** 20);
      batches = slices(records);
    } else {
      batches = (async function* () {
        for await (const b of jsonlBatches(jsonl)) {
          rows += b.length;
          yield b;
        }
      })();
    }
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await write(batches, out, jsonl);
    const c = process.cpuUsage(c0);
    seconds += (performance.now() - t0) / 1000;
    cpuSeconds += (c.user + c.system) / 1e6;
  }
  const maxRssMiB = mib(process.resourceUsage().maxRSS);
  process.stdout.write(
    `${JSON.stringify({ seconds, cpuSeconds, rows, maxRssMiB, recordsRssMiB: recordsRss })}\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    process.stderr.write(`${e?.stack ?? e}\n`);
    process.exit(1);
  });
}
