// convkit-gen-eval: regenerate document-relevance eval dicts from synthetic contexts, documents and facet qrels.
import { resolve } from "node:path";
import { defineCommand, PARQUET_COMPRESSION_OPTION, startProgress, stderrReport } from "@convkit/cli";
import {
  GEN_EVAL_RANGES,
  genEvalRunJob,
  generateEvalDicts,
  inRange,
  planQueuedEval,
  type QueuedGenEvalOptions,
  queuedEvalSpoolDir,
} from "@convkit/gen-eval";
import { UsageError } from "@convkit/io";
import { checkRunId, deriveRunId, parseQueueUrl, runOnQueue } from "@convkit/queue";
import { sampleData } from "@convkit/sample-data";

/** The `convkit-gen-eval` command. */
export const genEvalCommand = defineCommand({
  name: "convkit-gen-eval",
  summary:
    "Regenerate ClariQ's document-relevance eval dicts: per synthetic context and candidate question (the topic's questions not in the history, plus Q00001), rank the topic's documents for the request plus the question (no_answer) and plus question and answer (with_answer), and score NDCG1/3/5/10/20, P1/3/5/10/20, MRR100 against the facet's qrels, with MAX and MIN per context. Facets without relevant documents are left out.",
  options: [
    {
      name: "data",
      type: "string",
      metavar: "DIR",
      default: sampleData("clariq"),
      description: "ClariQ data dir (train/dev/test_with_labels TSVs) for the synthetic contexts",
    },
    {
      name: "qulac",
      type: "string",
      metavar: "FILE",
      description: "qulac.json (orders the questions of topics <= 200)",
    },
    {
      name: "split",
      type: "string",
      default: "dev",
      choices: ["train", "dev", "test"],
      description: "split whose contexts to evaluate",
    },
    {
      name: "contexts",
      type: "string",
      metavar: "FILE",
      description:
        "synthetic records to take the contexts from (gen:synthetic's JSONL or the published {split}_synthetic.pkl[.tar.gz]) instead of planning them; question ids from --data's question_bank.tsv",
    },
    {
      name: "qulac-ids",
      type: "boolean",
      description:
        "Qulac's flavour from --qulac alone: contexts topic-facet[-h1][-h2], qrels keyed topic-facet; use with --format qulac-json",
    },
    {
      name: "single-turn",
      type: "boolean",
      description: "single-turn dict: empty-history contexts keyed by facet id",
    },
    {
      name: "max-history",
      type: "integer",
      min: GEN_EVAL_RANGES.maxHistory.min,
      metavar: "N",
      default: 2,
      description: "longest history in turns (0, 1 or 2)",
    },
    {
      name: "docs",
      type: "string",
      metavar: "FILE",
      required: true,
      description:
        "candidate documents per topic: a TREC run, or a pickle {topic: [docno, ...]} such as top10k_docs_dict",
    },
    {
      name: "texts",
      type: "string",
      metavar: "FILE",
      required: true,
      multiple: true,
      description: "document texts: TrecWeb, ClueWeb22 JSONL or JSONL {id, text}; repeatable",
    },
    {
      name: "qrels",
      type: "string",
      metavar: "FILE",
      required: true,
      description: "facet qrels (F0001 0 docno grade)",
    },
    {
      name: "stats",
      type: "string",
      metavar: "FILE",
      description:
        "collection statistics (__total__ then term<TAB>cf lines); default: each topic's documents",
    },
    {
      name: "depth",
      type: "integer",
      min: GEN_EVAL_RANGES.depth.min,
      metavar: "N",
      default: 1000,
      description: "documents ranked per topic",
    },
    {
      name: "model",
      type: "string",
      default: "ql",
      choices: ["ql", "dirichlet", "bm25"],
      description: "ql: Qulac's query likelihood; dirichlet: Dirichlet LM on request+QA; bm25",
    },
    { name: "mu", type: "number", min: GEN_EVAL_RANGES.mu.min, default: 1500, description: "Dirichlet mu" },
    { name: "k1", type: "number", min: GEN_EVAL_RANGES.k1.min, description: "BM25 k1 (default 0.9)" },
    { name: "b", type: "number", min: GEN_EVAL_RANGES.b.min, description: "BM25 b (default 0.4)" },
    {
      name: "float32",
      type: "boolean",
      description: "C float arithmetic as the original query-likelihood code (ties and order depend on it)",
    },
    {
      name: "format",
      type: "list",
      choices: ["pickle", "json", "qulac-json", "parquet"],
      default: ["pickle", "json"],
      description:
        "outputs: pickle (PREFIX.pkl.tar.gz), json (PREFIX.json), qulac-json (PREFIX.qulac.json: {metric: {record_id_with_flag: value}}), parquet (PREFIX.parquet: the dict as a long table context, question, metric, no_answer, with_answer, aggregate (true on the MAX and MIN rows); context an int64 context id, a string facet or Qulac id with --single-turn or --qulac-ids)",
    },
    PARQUET_COMPRESSION_OPTION,
    {
      name: "shard",
      type: "shard",
      metavar: "I/N",
      description: "take topics I, I+N, ... of the split (0-based); N runs concatenate per metric",
    },
    {
      name: "threads",
      type: "integer",
      min: 1,
      metavar: "N",
      default: 1,
      description: "worker threads (piscina; output identical for any N)",
    },
    {
      name: "out",
      short: "o",
      type: "string",
      metavar: "PREFIX",
      default: "out/dev_eval",
      description: "output path prefix",
    },
    {
      name: "queue",
      type: "string",
      metavar: "URL",
      description:
        "run on a queue (redis://HOST:PORT[/DB]): groups of topics as jobs for convkit-worker processes on machines that see the inputs and the output folder; waits with one progress line; the same dict as a local run",
    },
    {
      name: "topics-per-job",
      type: "integer",
      min: 1,
      metavar: "N",
      default: 4,
      description: "with --queue: topics per job (each job reads its topics' documents from --texts)",
    },
    {
      name: "run-id",
      type: "string",
      metavar: "ID",
      description: "the run's id on the queue (default: derived from the inputs, options and -o)",
    },
    { name: "detach", type: "boolean", description: "with --queue: submit the run and return" },
  ],
  examples: [
    "convkit-gen-eval --data ../shared/data/clariq --qulac ../shared/data/qulac/qulac.json --docs top10k.run --texts docs.jsonl --qrels ../shared/data/clariq/dev.qrel -o out/multi_turn_dev_eval",
  ],
  async run(o) {
    const maxHistory = o["max-history"];
    // The ranges a worker checks a queued job's options against, too.
    for (const [key, v] of [
      ["maxHistory", maxHistory],
      ["depth", o.depth],
      ["mu", o.mu],
      ["k1", o.k1],
      ["b", o.b],
    ] as const) {
      const r = GEN_EVAL_RANGES[key];
      if (v !== undefined && !inRange(r, v))
        throw new UsageError(`convkit-gen-eval: --${r.option} takes ${r.expected}`);
    }
    const options = {
      data: o.data,
      qulac: o.qulac,
      split: o.split,
      singleTurn: o["single-turn"],
      maxHistory,
      docs: o.docs,
      texts: o.texts,
      qrels: o.qrels,
      stats: o.stats,
      depth: o.depth,
      ranking: { model: o.model, mu: o.mu, k1: o.k1, b: o.b, float32: o.float32 },
      out: o.out,
      formats: o.format,
      ...(o.format.includes("parquet") ? { compression: o.compression } : {}),
      qulacIds: o["qulac-ids"],
      contexts: o.contexts,
    };
    if (o.queue !== undefined) {
      if (o.shard)
        throw new UsageError(
          "convkit-gen-eval: --queue shares the topics among workers itself: drop --shard",
        );
      return genEvalOnQueue(o.queue, options, o["topics-per-job"], o["run-id"], o.detach);
    }
    if (o["run-id"] !== undefined || o.detach)
      throw new UsageError("convkit-gen-eval: --run-id and --detach go with --queue");
    const t0 = performance.now();
    const progress = startProgress("gen:eval", "topics");
    let last = 0;
    const s = await generateEvalDicts({
      ...options,
      shard: o.shard,
      threads: o.threads,
      onTopic: (n) => {
        progress.tick(n - last);
        last = n;
      },
    });
    progress.done();
    const secs = (performance.now() - t0) / 1000;
    process.stderr.write(
      `${s.topics} topics, ${s.contexts} contexts, ${s.queries} queries in ${secs.toFixed(2)} s (${Math.round(s.queries / secs)} queries/s): ${s.files.join(", ")}\n`,
    );
    return 0;
  },
});

/** Paths of the options made absolute: the workers run elsewhere, from other folders. */
function absolute(o: QueuedGenEvalOptions): QueuedGenEvalOptions {
  for (const p of [o.docs, o.qrels, o.contexts, o.stats, o.qulac, ...o.texts])
    if (p === "-")
      throw new UsageError(
        "convkit-gen-eval: a run on the queue reads files every worker sees: stdin (-) cannot be one",
      );
  const abs = (p: string | undefined) => (p === undefined ? undefined : resolve(p));
  return {
    ...o,
    data: resolve(o.data),
    qulac: abs(o.qulac),
    contexts: abs(o.contexts),
    docs: resolve(o.docs),
    texts: o.texts.map((t) => resolve(t)),
    qrels: resolve(o.qrels),
    stats: abs(o.stats),
    out: resolve(o.out),
  };
}

/**
 * gen:eval on the queue: planned here (the topics in output order, cut into groups), one flow
 * submitted (a unit per group spooling beside the output, the run's end writing the dicts),
 * then watched to its end.
 */
async function genEvalOnQueue(
  url: string,
  given: QueuedGenEvalOptions,
  perJob: number,
  askedId: string | undefined,
  detach: boolean,
): Promise<number> {
  const address = parseQueueUrl(url);
  const options = absolute(given);
  const runId = askedId === undefined ? deriveRunId("gen-eval", { options, perJob }) : checkRunId(askedId);
  const { units, topics } = await planQueuedEval(options, runId, perJob);
  const plan = {
    runId,
    kind: genEvalRunJob,
    payload: {
      options,
      spoolDir: queuedEvalSpoolDir(options.out, runId),
      unitSpools: units.map((u) => u.spools),
    },
    units: units.map((u) => ({ key: u.spools, payload: u })),
  };
  return runOnQueue(address, plan, {
    report: stderrReport,
    detach,
    label: "gen:eval",
    items: "topics",
    units: "jobs",
    what: `${topics} topics in ${units.length} jobs`,
    summary: ({ value: s, failed }, secs) =>
      failed.length
        ? `run ${runId}: ${failed.length} jobs failed (above); no dict written`
        : `run ${runId}: ${s.topics} topics, ${s.contexts} contexts, ${s.queries} queries in ${secs.toFixed(2)} s: ${s.files.join(", ")}`,
  });
}
