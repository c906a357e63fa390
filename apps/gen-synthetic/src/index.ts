// convkit-gen-synthetic: ClariQ's synthetic multi-turn sets rebuilt from the single-turn TSVs.
import { defineCommand, PARQUET_COMPRESSION_OPTION, startProgress } from "@convkit/cli";
import {
  planClariqSets,
  type SetFormat,
  splitCounts,
  splitPlans,
  writeQulacSet,
  writeSyntheticSplit,
} from "@convkit/gen-synthetic";
import { UsageError, withOutputDir } from "@convkit/io";
import { sampleData } from "@convkit/sample-data";

const FORMATS = ["jsonl", "parquet", "pickle", "tsv"] as const satisfies readonly SetFormat[];
/** What a run writes unless told: Parquet only when asked (`--format jsonl,parquet`). */
const DEFAULT_FORMATS = ["jsonl", "pickle", "tsv"] as const satisfies readonly SetFormat[];

/** The `convkit-gen-synthetic` command. */
export const genSyntheticCommand = defineCommand({
  name: "convkit-gen-synthetic",
  summary:
    "Rebuild ClariQ's synthetic multi-turn sets (train_synthetic, dev_synthetic, test) from train/dev/test_with_labels TSVs: JSONL, Parquet (the same records, typed columns), the upstream pickle in a tar.gz, and a TSV of contexts.",
  options: [
    {
      name: "data",
      type: "string",
      metavar: "DIR",

      description:
        "folder with train.tsv, dev.tsv, test_with_labels.tsv (default: the sample fixtures shipped with convkit, @convkit/sample-data; with only --qulac: Qulac's own flavour)",
    },
    {
      name: "qulac",
      type: "string",
      metavar: "FILE",
      description: "qulac.json, needed to order the questions of topics <= 200",
    },
    {
      name: "splits",
      type: "list",
      choices: ["dev", "train", "test"],
      default: ["dev", "train"],
      description: "splits to write",
    },
    {
      name: "format",
      type: "list",
      choices: FORMATS,
      default: DEFAULT_FORMATS,
      description:
        "outputs: jsonl (SPLIT_synthetic.jsonl), parquet (SPLIT_synthetic.parquet: the JSONL's records, fields and order; conversation_context a list<struct<question, answer>>), pickle (SPLIT_synthetic.pkl.tar.gz), tsv (SPLIT_synthetic.contexts.tsv, the contexts table; it stays TSV with parquet)",
    },
    PARQUET_COMPRESSION_OPTION,
    { name: "gzip", type: "boolean", description: "gzip the JSONL" },
    {
      name: "ordered",
      type: "boolean",
      description:
        "histories as ordered sequences ([a, b] and [b, a] differ) instead of ClariQ's unordered sets",
    },
    {
      name: "max-history",
      type: "integer",
      min: 0,
      metavar: "N",
      default: 2,
      description: "longest history in turns (0, 1 or 2)",
    },
    {
      name: "topics",
      type: "list",
      metavar: "LIST",
      description: "only these topic ids (comma-separated); ids stay ClariQ's",
    },
    {
      name: "threads",
      type: "integer",
      min: 1,
      metavar: "N",
      default: 1,
      description: "threads encoding JSONL (a piscina pool when > 1; output bytes identical for any N)",
    },
    { name: "out", type: "string", metavar: "DIR", default: "out/synthetic", description: "output folder" },
  ],
  examples: [
    "pnpm gen:synthetic",
    "convkit-gen-synthetic --data ../shared/data/clariq --qulac ../shared/data/qulac/qulac.json --splits dev,train,test --out out",
  ],
  async run(o) {
    const { splits, format: formats, threads } = o;
    const maxHistory = o["max-history"];
    if (maxHistory > 2) throw new UsageError("convkit-gen-synthetic: --max-history takes 0, 1 or 2");
    const topics = o.topics ? new Set(o.topics.map(Number)) : undefined;
    if (topics && [...topics].some((t) => !Number.isInteger(t)))
      throw new UsageError("convkit-gen-synthetic: --topics takes comma-separated topic ids");
    // The output folder checked before any work (a file in its place or a read-only one is one
    // line) and removed again if this run made it and fails.
    return withOutputDir(o.out, async () => {
      const t0 = performance.now();
      if (o.data === undefined && o.qulac !== undefined) {
        // Qulac's flavour: qulac_hist012_dict with Qulac's string ids, from qulac.json alone.
        const progress = startProgress("qulac_hist012_dict", "records");
        let last = 0;
        const q = await writeQulacSet(o.qulac, {
          outDir: o.out,
          formats: formats.map((f) => (f === "pickle" ? "json" : f)),
          gzip: o.gzip,
          compression: o.compression,
          onRecords: (n) => {
            progress.tick(n - last);
            last = n;
          },
        });
        progress.done();
        process.stderr.write(
          `${q.records} records, ${q.files.length} files in ${((performance.now() - t0) / 1000).toFixed(2)} s: ${q.files.join(", ")}\n`,
        );
        return 0;
      }
      const sets = await planClariqSets(o.data ?? sampleData("clariq"), o.qulac, o.ordered);
      let records = 0;
      let contexts = 0;
      const files: string[] = [];
      for (const split of splits) {
        const total = splitCounts(
          splitPlans(sets, split).filter((p) => !topics || topics.has(p.topic_id)),
          sets.ordered,
        ).records;
        const progress = startProgress(`${split}_synthetic`, "records", total);
        let last = 0;
        const s = await writeSyntheticSplit(sets, split, {
          formats,
          outDir: o.out,
          gzip: o.gzip,
          compression: o.compression,
          threads,
          maxHistory,
          ...(topics ? { topics } : {}),
          onRecords: (n) => {
            progress.tick(n - last);
            last = n;
          },
        });
        progress.done();
        records += s.records;
        contexts += s.contexts;
        files.push(...s.files);
      }
      const secs = ((performance.now() - t0) / 1000).toFixed(2);
      process.stderr.write(
        `${records} records, ${contexts} contexts, ${files.length} files in ${secs} s: ${files.join(", ")}\n`,
      );
      return 0;
    });
  },
});
