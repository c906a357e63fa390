// convkit-compare: paired significance tests between runs and the tables papers print, from trec_eval measures, ClariQ or per-topic files.
import { defineCommand, PARQUET_COMPRESSION_OPTION } from "@convkit/cli";
import {
  COMPARISON_FORMATS,
  clariqPerTopic,
  comparedValues,
  compareRuns,
  DEFAULT_TREC_MEASURES,
  formatComparison,
  pairRows,
  type RunValues,
  readPerTopicFile,
  runNames,
  TESTS,
  trecPerTopic,
} from "@convkit/compare";
import { COMPARE_PAIR_SCHEMA, COMPARE_VALUE_SCHEMA } from "@convkit/formats";
import { checkOutputPath, UsageError, writeAtomic } from "@convkit/io";
import { writeParquet } from "@convkit/parquet";
import { CORRECTIONS } from "@convkit/stats";

/** The `convkit-compare` command. */
export const compareCommand = defineCommand({
  name: "convkit-compare",
  summary:
    "Is run B really better than run A? Paired tests (t, Wilcoxon, sign, randomization) between runs per measure, corrected for multiple testing as SciPy and statsmodels compute them, printed as a table, Markdown, LaTeX, JSON or CSV.",
  usage:
    "convkit-compare --qrels QRELS [-m MEASURE]... RUN RUN...\n       convkit-compare --per-topic FILE FILE...   (trec_eval -q outputs)\n       convkit-compare --clariq TASK --data_dir DIR [--multi_turn] RUN RUN...",
  positionals: {
    name: "RUN",
    description: "two or more runs, TREC text or Parquet (or per-topic files)",
    min: 2,
  },
  options: [
    {
      name: "qrels",
      type: "string",
      metavar: "QRELS",
      description: "score TREC runs with convkit-trec-eval's measures against these qrels",
    },
    {
      name: "m",
      short: "m",
      type: "string",
      multiple: true,
      metavar: "MEASURE",
      description: `measures to compare: trec_eval specs with --qrels (default ${DEFAULT_TREC_MEASURES.join(" ")}), else names as in the files (default: those every run has)`,
    },
    {
      name: "per-topic",
      type: "boolean",
      description: "the RUNs are trec_eval -q outputs (measure<TAB>topic<TAB>value; `all` lines ignored)",
    },
    {
      name: "clariq",
      type: "string",
      choices: ["document_relevance", "question_relevance"],
      metavar: "TASK",
      description: "score ClariQ runs as convkit-clariq-eval does (per facet, topic or context)",
    },
    { name: "data_dir", type: "string", metavar: "DIR", description: "ClariQ's data folder (with --clariq)" },
    { name: "multi_turn", type: "boolean", description: "multi-turn document relevance (with --clariq)" },
    {
      name: "experiment_type",
      type: "string",
      choices: ["train", "dev", "test"],
      default: "dev",
      description: "ClariQ split (with --clariq)",
    },
    {
      name: "missing",
      type: "string",
      choices: ["drop", "zero"],
      default: "drop",
      description:
        "topics a run lacks: compare on the topics all runs have, or count them 0 (trec_eval -c with --qrels)",
    },
    {
      name: "baseline",
      type: "string",
      metavar: "RUN",
      description: "compare each run against this one (its file name) instead of all pairs",
    },
    { name: "test", type: "string", choices: TESTS, default: "t", description: "paired test" },
    {
      name: "alternative",
      type: "string",
      choices: ["two-sided", "greater", "less"],
      default: "two-sided",
      description: "greater: is a better than b (a, b as in the pairs printed)",
    },
    {
      name: "correction",
      type: "string",
      choices: CORRECTIONS,
      default: "holm",
      description: "multiple-testing correction, per measure",
    },
    { name: "alpha", type: "number", default: 0.05, description: "significance level" },
    {
      name: "zero_method",
      type: "string",
      choices: ["wilcox", "pratt"],
      default: "wilcox",
      description: "Wilcoxon: zero differences dropped (wilcox) or ranked (pratt)",
    },
    {
      name: "continuity",
      type: "boolean",
      description: "Wilcoxon: continuity correction of the normal approximation",
    },
    {
      name: "permutations",
      type: "integer",
      min: 1,
      default: 10000,
      description: "randomization: sign patterns drawn (all 2^n up to 20 topics)",
    },
    {
      name: "seed",
      type: "integer",
      min: 0,
      default: 1,
      description: "randomization: seed (the same p for any thread count)",
    },
    {
      name: "threads",
      type: "integer",
      min: 1,
      default: 1,
      metavar: "N",
      description: "worker threads for the randomization test",
    },
    {
      name: "format",
      type: "string",
      choices: [...COMPARISON_FORMATS, "parquet"],
      default: "table",
      description: "output format (parquet: the pairs as csv's columns, one row a pair and measure)",
    },
    {
      name: "out",
      short: "o",
      type: "string",
      default: "-",
      metavar: "FILE",
      description: "where to write (- for stdout)",
    },
    {
      name: "values-out",
      type: "string",
      metavar: "FILE",
      description:
        "also write the per-topic values compared as Parquet: run, measure, topic, value (the topics each measure was tested on)",
    },
    PARQUET_COMPRESSION_OPTION,
  ],
  examples: [
    "convkit-compare --qrels qrels.txt -m ndcg_cut.10 -m map --baseline bm25.run bm25.run rm3.run bert.run",
    "convkit-compare --per-topic --test wilcoxon --format latex bm25.q rm3.q bert.q",
    "convkit-compare --clariq document_relevance --data_dir ../shared/data/clariq --baseline dev_no_q dev_no_q dev_bm25 dev_best_q",
    "convkit-compare --qrels qrels.txt --format parquet -o pairs.parquet bm25.run rm3.run",
  ],
  async run(o, runs) {
    if (o.format !== "parquet" && o.out.endsWith(".parquet"))
      throw new UsageError(`convkit-compare: ${o.out} names a Parquet file: add --format parquet`);
    const valuesOut = o["values-out"];
    if (valuesOut !== undefined && valuesOut === o.out)
      throw new UsageError(
        `convkit-compare: --values-out ${valuesOut}: give a file of its own (-o ${o.out} gets the comparison)`,
      );
    await checkOutputPath(o.out);
    if (valuesOut !== undefined) await checkOutputPath(valuesOut);
    const sources = [o.qrels !== undefined, o["per-topic"], o.clariq !== undefined].filter(Boolean).length;
    if (sources !== 1)
      throw new UsageError("convkit-compare: give exactly one of --qrels, --per-topic, --clariq");
    const names = runNames(runs);
    let values: RunValues[];
    if (o.qrels !== undefined) values = await trecPerTopic(o.qrels, runs, o.m, o.missing === "zero");
    else if (o["per-topic"]) values = await Promise.all(runs.map(readPerTopicFile));
    else {
      if (o.clariq === undefined)
        throw new UsageError("convkit-compare: give exactly one of --qrels, --per-topic, --clariq");
      if (o.data_dir === undefined) throw new UsageError("convkit-compare: --clariq needs --data_dir");
      values = await clariqPerTopic(o.clariq, o.data_dir, o.multi_turn, o.experiment_type, runs);
    }
    const table = { runs: names.map((name, i) => ({ name, values: values[i]! })) };
    const comparison = await compareRuns(table, {
      ...(o.qrels === undefined && o.m.length > 0 ? { measures: o.m } : {}),
      ...(o.baseline === undefined ? {} : { baseline: o.baseline }),
      test: o.test,
      alternative: o.alternative,
      correction: o.correction,
      alpha: o.alpha,
      missing: o.missing,
      zeroMethod: o.zero_method,
      continuity: o.continuity,
      permutations: o.permutations,
      seed: o.seed,
      threads: o.threads,
    });
    if (valuesOut !== undefined)
      await writeParquet(valuesOut, COMPARE_VALUE_SCHEMA, [comparedValues(table, comparison)], {
        codec: o.compression,
      });
    if (o.format === "parquet") {
      await writeParquet(o.out, COMPARE_PAIR_SCHEMA, [pairRows(comparison)], { codec: o.compression });
      return 0;
    }
    const text = formatComparison(comparison, o.format);
    await writeAtomic(o.out, async (s) => {
      await s.write(Buffer.from(text));
    });
    return 0;
  },
});
