// convkit-trec-eval: trec_eval's measures, flags and output layout over TREC qrels and runs.
import { defineCommand, PARQUET_COMPRESSION_OPTION } from "@convkit/cli";
import { TREC_EVAL_VALUE_SCHEMA } from "@convkit/formats";
import { checkOutputPath, InputError, UsageError, writeAtomic } from "@convkit/io";
import { writeParquet } from "@convkit/parquet";
import {
  evaluateRunFile,
  formatRunEvaluation,
  loadByteQrels,
  MEASURES,
  parseMeasureOptions,
} from "@convkit/trec-eval";
import { trecEvalRows } from "./table.js";

/** The `convkit-trec-eval` command. */
export const trecEvalCommand = defineCommand({
  name: "convkit-trec-eval",
  summary:
    "Evaluate a TREC run against qrels as trec_eval does (ordering: score desc, ties by docno desc; negative grades unjudged; topics without qrels ignored).",
  usage:
    "convkit-trec-eval [-q] [-c] [-l LEVEL] [-M MAX] [-m MEASURE]... [--format parquet -o FILE] QRELS RUN",
  positionals: {
    name: "QRELS RUN",
    description:
      "the qrels file and the run file (either may be -; TREC text, or Parquet in convkit's or ranx's layout, told by content)",
    min: 2,
    max: 2,
  },
  options: [
    { name: "q", short: "q", type: "boolean", description: "print per-topic values too" },
    {
      name: "c",
      short: "c",
      type: "boolean",
      description:
        "average over every qrels topic (a topic the run lacks is scored as trec_eval does, on a one-document stand-in)",
    },
    {
      name: "m",
      short: "m",
      type: "string",
      multiple: true,
      metavar: "MEASURE",
      description: `measure[.params]: official (the default), all_trec, ${MEASURES.join(", ")}`,
    },
    {
      name: "l",
      short: "l",
      type: "integer",
      metavar: "LEVEL",
      description: "lowest grade that counts as relevant for binary measures",
      default: 1,
    },
    {
      name: "M",
      short: "M",
      type: "integer",
      min: 0,
      metavar: "MAX",
      description: "evaluate only the top MAX documents per topic",
    },
    {
      name: "format",
      type: "string",
      choices: ["text", "parquet"],
      default: "text",
      description:
        "text (trec_eval's bytes) or parquet: a table measure, topic (`all` for the summary), value (a double, as printed; runid and relstring left out)",
    },
    {
      name: "out",
      short: "o",
      type: "string",
      default: "-",
      metavar: "FILE",
      description: "where to write (- for stdout)",
    },
    PARQUET_COMPRESSION_OPTION,
  ],
  examples: [
    "convkit-trec-eval -m ndcg_cut.1,3,5,10,20 -m P.1,3,5,10,20 -m recip_rank_cut.100 qrels run",
    "convkit-trec-eval -q -c qrels run",
    "convkit-trec-eval -q --format parquet -o per-topic.parquet qrels run",
  ],
  async run(o, [qrelsPath, runPath]) {
    if (o.format !== "parquet" && o.out.endsWith(".parquet"))
      throw new UsageError(`convkit-trec-eval: ${o.out} names a Parquet file: add --format parquet`);
    await checkOutputPath(o.out); // a folder in the way is one line before the evaluation, not after
    const specs = parseMeasureOptions("convkit-trec-eval", o.m);
    const qrels = await loadByteQrels(qrelsPath);
    const ev = await evaluateRunFile(qrels, runPath, specs, {
      relevanceLevel: o.l,
      maxDocs: o.M,
      allTopics: o.c,
      runFile: runPath,
      perTopicLines: o.q,
    });
    if (ev.topics.length === 0)
      throw new InputError(
        runPath === "-" ? "<stdin>" : runPath,
        {},
        `topics judged in ${qrelsPath}`,
        "none (trec_eval: No queries with both results and relevance info)",
      );
    const text = formatRunEvaluation(ev, o.q);
    if (o.format === "parquet")
      await writeParquet(o.out, TREC_EVAL_VALUE_SCHEMA, [trecEvalRows(text.toString("utf8"))], {
        codec: o.compression,
      });
    else await writeAtomic(o.out, (s) => s.write(text));
    return 0;
  },
});
