// convkit-trec-eval: trec_eval's measures, flags and output layout over TREC qrels and runs.
import { defineCommand } from "@convkit/cli";
import { InputError, writeStdout } from "@convkit/io";
import {
  evaluateRunFile,
  formatRunEvaluation,
  loadByteQrels,
  MEASURES,
  parseMeasureOptions,
} from "@convkit/trec-eval";

/** The `convkit-trec-eval` command. */
export const trecEvalCommand = defineCommand({
  name: "convkit-trec-eval",
  summary:
    "Evaluate a TREC run against qrels as trec_eval does (ordering: score desc, ties by docno desc; negative grades unjudged; topics without qrels ignored).",
  usage: "convkit-trec-eval [-q] [-c] [-l LEVEL] [-M MAX] [-m MEASURE]... QRELS RUN",
  positionals: {
    name: "QRELS RUN",
    description: "the qrels file and the run file (either may be -)",
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
  ],
  examples: [
    "convkit-trec-eval -m ndcg_cut.1,3,5,10,20 -m P.1,3,5,10,20 -m recip_rank_cut.100 qrels run",
    "convkit-trec-eval -q -c qrels run",
  ],
  async run(o, [qrelsPath, runPath]) {
    const specs = parseMeasureOptions("convkit-trec-eval", o.m);
    const qrels = await loadByteQrels(qrelsPath!);
    const ev = await evaluateRunFile(qrels, runPath!, specs, {
      relevanceLevel: o.l,
      maxDocs: o.M,
      allTopics: o.c,
      runFile: runPath,
      perTopicLines: o.q,
    });
    if (ev.topics.length === 0)
      throw new InputError(
        runPath === "-" ? "<stdin>" : runPath!,
        {},
        `topics judged in ${qrelsPath}`,
        "none (trec_eval: No queries with both results and relevance info)",
      );
    await writeStdout(formatRunEvaluation(ev, o.q));
    return 0;
  },
});
