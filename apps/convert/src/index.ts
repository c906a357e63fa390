// convkit-convert: any supported dataset file to JSON Lines.

import { basename, join } from "node:path";
import { defineCommand, startProgress } from "@convkit/cli";
import { FORMATS, readAny } from "@convkit/formats";
import { checkOutputDir, checkOutputPath, UsageError, writeJsonl } from "@convkit/io";

/** The `convkit-convert` command. */
export const convertCommand = defineCommand({
  name: "convkit-convert",
  summary:
    "Read any ClariQ/Qulac/TREC/iKAT/ClueWeb22/Touché file (plain, .gz, .bz2, .tar.gz, split .aa/.ab) and write its records as JSON Lines.",
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
      description: "output JSONL file (- for stdout)",
      default: "-",
    },
    {
      name: "out-dir",
      short: "d",
      type: "string",
      description: "write each INPUT to DIR/<name>.jsonl instead (several inputs)",
      metavar: "DIR",
    },
    {
      name: "gzip",
      type: "boolean",
      description: "gzip the output file (-o FILE.gz, --out-dir; not stdout)",
    },
  ],
  examples: [
    "convkit-convert data/clariq/dev.sample.tsv -o out/dev.jsonl",
    "convkit-convert --format qrels data/clariq/sample.qrel | head",
    "convkit-convert ../shared/golden/clariq-eval/eval_dicts/multi_turn_dev_eval.pkl.tar.gz -o eval.jsonl.gz --gzip",
  ],
  async run(o, inputs) {
    if (o.gzip && o["out-dir"] === undefined && o.out === "-")
      // stdout is written as it comes: asking for gzip there and getting text would pass unnoticed.
      throw new UsageError(
        "convkit-convert: --gzip writes files (-o FILE.gz, --out-dir); for stdout, pipe into gzip",
      );
    if (inputs.length > 1 && o["out-dir"] === undefined)
      throw new UsageError("convkit-convert: several inputs need --out-dir");
    const outs = inputs.map((input) =>
      o["out-dir"] === undefined
        ? o.out
        : join(o["out-dir"], `${basename(input)}.jsonl${o.gzip ? ".gz" : ""}`),
    );
    const twice = outs.find((out, i) => out !== "-" && outs.indexOf(out) !== i);
    if (twice !== undefined)
      throw new UsageError(
        `convkit-convert: two inputs would both be written to ${twice} (inputs of the same name in different folders): convert them into different --out-dir`,
      );
    // Every output checked before any input is read: a folder in the way is one line, not work lost.
    if (o["out-dir"] !== undefined) await checkOutputDir(o["out-dir"]);
    for (const out of outs) await checkOutputPath(out);
    for (const [i, input] of inputs.entries()) {
      const out = outs[i]!;
      const { format, batches } = await readAny(input, o.format);
      const progress = startProgress(`convert ${format}`, "records");
      async function* counted() {
        for await (const b of batches) {
          progress.tick(b.length);
          yield b;
        }
      }
      const n = await writeJsonl(out, counted(), { gzip: o.gzip });
      progress.done();
      if (out !== "-") process.stderr.write(`${input}: ${n} ${format} records -> ${out}\n`);
    }
    return 0;
  },
});
