// convkit-convert: any supported dataset file to JSON Lines.
import type { CommandSpec } from "@convkit/cli";
import { startProgress } from "@convkit/cli";
import { FORMATS, type FormatName, readAny } from "@convkit/formats";
import { writeJsonl } from "@convkit/io";

/** The `convkit-convert` command. */
export const convertCommand: CommandSpec = {
  name: "convkit-convert",
  summary: "Read any ClariQ/Qulac/TREC/iKAT/ClueWeb22/Touché file (plain, .gz, .bz2, .tar.gz, split .aa/.ab) and write its records as JSON Lines.",
  usage: "convkit-convert [options] INPUT",
  positionals: { name: "INPUT", description: "the file to read (- for stdin)", min: 1, max: 1 },
  options: [
    { name: "format", short: "f", type: "string", description: "input format; detected from content when absent", choices: FORMATS },
    { name: "out", short: "o", type: "string", description: "output JSONL file (- for stdout)", default: "-" },
    { name: "gzip", type: "boolean", description: "gzip the output" },
  ],
  examples: [
    "convkit-convert data/clariq/dev.sample.tsv -o out/dev.jsonl",
    "convkit-convert --format qrels data/clariq/sample.qrel | head",
    "convkit-convert ../shared/golden/clariq-eval/eval_dicts/multi_turn_dev_eval.pkl.tar.gz -o eval.jsonl.gz --gzip",
  ],
  async run(o, [input]) {
    const { format, batches } = await readAny(input!, o.format as FormatName | undefined);
    const progress = startProgress(`convert ${format}`, "records");
    async function* counted() {
      for await (const b of batches) {
        progress.tick(b.length);
        yield b;
      }
    }
    const n = await writeJsonl(o.out as string, counted(), { gzip: o.gzip === true });
    progress.done();
    if (o.out !== "-") process.stderr.write(`${n} ${format} records -> ${o.out}\n`);
    return 0;
  },
};
