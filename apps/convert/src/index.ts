// convkit-convert: any supported dataset file to JSON Lines or Parquet.

import { basename, join } from "node:path";
import { defineCommand, PARQUET_COMPRESSION_OPTION, startProgress } from "@convkit/cli";
import { FORMATS, type FormatName, readAny } from "@convkit/formats";
import { checkOutputDir, checkOutputPath, UsageError, writeJsonl } from "@convkit/io";
import { type Codec, writeParquet } from "@convkit/parquet";
import { readParquetTable } from "./parquet-in.js";
import { tableOf } from "./tables.js";

/** The `convkit-convert` command. */
export const convertCommand = defineCommand({
  name: "convkit-convert",
  summary:
    "Read any ClariQ/Qulac/TREC/iKAT/ClueWeb22/Touché file (plain, .gz, .bz2, .tar.gz, split .aa/.ab) and write its records as JSON Lines or Parquet (--to parquet: one row a record, the record type's declared schema).",
  usage: "convkit-convert [options] INPUT...",
  positionals: { name: "INPUT...", description: "the files to read (- for stdin)", min: 1 },
  options: [
    {
      name: "format",
      short: "f",
      type: "string",
      description: "input format; detected from content when absent",
      choices: FORMATS,
    },
    {
      name: "out",
      short: "o",
      type: "string",
      description: "output file, JSONL or Parquet as --to says (- for stdout)",
      default: "-",
    },
    {
      name: "out-dir",
      short: "d",
      type: "string",
      description: "write each INPUT to DIR/<name>.jsonl (or .parquet) instead (several inputs)",
      metavar: "DIR",
    },
    {
      name: "to",
      type: "string",
      choices: ["jsonl", "parquet"],
      default: "jsonl",
      metavar: "FORMAT",
      description:
        "output format: jsonl, or parquet (one row a record; iKAT topics one row a turn, iKAT runs one a response)",
    },
    {
      name: "gzip",
      type: "boolean",
      description: "gzip the JSONL output file (-o FILE.gz, --out-dir; not stdout, not Parquet)",
    },
    PARQUET_COMPRESSION_OPTION,
  ],
  examples: [
    "convkit-convert data/clariq/dev.sample.tsv -o out/dev.jsonl",
    "convkit-convert --format qrels data/clariq/sample.qrel | head",
    "convkit-convert ../shared/golden/clariq-eval/eval_dicts/multi_turn_dev_eval.pkl.tar.gz -o eval.jsonl.gz --gzip",
    "convkit-convert --to parquet data/clariq/dev.sample.tsv -o out/dev.parquet",
  ],
  async run(o, inputs) {
    const parquet = o.to === "parquet";
    if (parquet && o.gzip)
      throw new UsageError(
        "convkit-convert: --gzip is for JSONL; Parquet compresses its pages itself (--compression zstd|snappy|none)",
      );
    if (!parquet && o.out.endsWith(".parquet"))
      // JSON Lines under a .parquet name would be found out only by the reader that chokes on it.
      throw new UsageError(`convkit-convert: ${o.out} names a Parquet file: add --to parquet`);
    if (o.gzip && o["out-dir"] === undefined && o.out === "-")
      // stdout is written as it comes: asking for gzip there and getting text would pass unnoticed.
      throw new UsageError(
        "convkit-convert: --gzip writes files (-o FILE.gz, --out-dir); for stdout, pipe into gzip",
      );
    if (inputs.length > 1 && o["out-dir"] === undefined)
      throw new UsageError("convkit-convert: several inputs need --out-dir");
    const jobs = inputs.map((input) => ({
      input,
      out:
        o["out-dir"] === undefined
          ? o.out
          : join(o["out-dir"], `${basename(input)}.${o.to}${o.gzip ? ".gz" : ""}`),
    }));
    const outs = jobs.map((j) => j.out);
    const twice = outs.find((out, i) => out !== "-" && outs.indexOf(out) !== i);
    if (twice !== undefined)
      throw new UsageError(
        `convkit-convert: two inputs would both be written to ${twice} (inputs of the same name in different folders): convert them into different --out-dir`,
      );
    // Every output checked before any input is read: a folder in the way is one line, not work lost.
    if (o["out-dir"] !== undefined) await checkOutputDir(o["out-dir"]);
    for (const out of outs) await checkOutputPath(out);
    for (const { input, out } of jobs) {
      const own = o.format === undefined ? await readParquetTable(input) : undefined;
      const { format, batches }: { format: string; batches: AsyncIterable<unknown[]> } = own
        ? { format: own.schema.what, batches: own.batches }
        : await readAny(input, o.format);
      const progress = startProgress(`convert ${format}`, "records");
      async function* counted() {
        for await (const b of batches) {
          progress.tick(b.length);
          yield b;
        }
      }
      const n = parquet
        ? own
          ? await writeParquet(out, own.schema, own.batches, { codec: o.compression })
          : await writeTable(out, format as FormatName, input, counted(), o.compression)
        : await writeJsonl(out, counted(), { gzip: o.gzip });
      progress.done();
      if (out !== "-")
        process.stderr.write(`${input}: ${n} ${format} ${parquet ? "rows" : "records"} -> ${out}\n`);
    }
    return 0;
  },
});

/** Writes records as the Parquet table of their format (its kind told by the first batch). */
async function writeTable(
  out: string,
  format: FormatName,
  input: string,
  batches: AsyncIterable<unknown[]>,
  codec: Codec,
): Promise<number> {
  const it = batches[Symbol.asyncIterator]();
  const head = await it.next();
  const first = head.done ? [] : head.value;
  const table = tableOf(format, input === "-" ? "<stdin>" : input, first);
  async function* rows() {
    if (!head.done) yield table.rows(first);
    for (let b = await it.next(); !b.done; b = await it.next()) yield table.rows(b.value);
  }
  return writeParquet(out, table.schema, rows(), { codec });
}
