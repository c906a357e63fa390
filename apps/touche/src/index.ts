// convkit-touche: the TIRA command (-i INPUT_DIR -o OUTPUT_DIR) and the Task 1 evaluation.
import { join } from "node:path";
import { defineCommand, startProgress } from "@convkit/cli";
import { collect, readRun, readToucheTopics } from "@convkit/formats";
import { UsageError, writeStdout } from "@convkit/io";
import { corpusFiles, evaluateTouche, retrieveTouche } from "@convkit/touche";
import { loadQrels, writeRun } from "@convkit/trec-eval";

/** `convkit-touche run`. */
export const toucheRunCommand = defineCommand({
  name: "convkit-touche run",
  summary:
    "TIRA-style: reads the args.me files (*.json) and topics.xml of INPUT_DIR, writes OUTPUT_DIR/run.txt in TREC format, at most --depth arguments per topic, scores non-increasing, ties by docid descending (trec_eval's order). Arguments are retrieved by conclusion + premises; the corpus is streamed twice (query-term statistics, then scoring), never held. DirichletLM is Lucene's (mu 2000, per-term scores floored at 0); BM25 is Lucene's (k1 1.2, b 0.75).",
  options: [
    {
      name: "input",
      short: "i",
      type: "string",
      metavar: "INPUT_DIR",
      required: true,
      description: "args.me *.json files and topics.xml",
    },
    {
      name: "output",
      short: "o",
      type: "string",
      metavar: "OUTPUT_DIR",
      required: true,
      description: "where run.txt goes",
    },
    {
      name: "model",
      type: "string",
      default: "dirichlet",
      choices: ["dirichlet", "bm25"],
      description: "ranking model",
    },
    { name: "mu", type: "number", min: 0, description: "DirichletLM mu (default 2000)" },
    { name: "k1", type: "number", min: 0, description: "BM25 k1 (default 1.2)" },
    { name: "b", type: "number", min: 0, description: "BM25 b (default 0.75)" },
    { name: "depth", type: "integer", min: 1, default: 1000, description: "arguments per topic" },
    { name: "tag", type: "string", description: "run tag (default convkit-MODEL)" },
  ],
  async run(o) {
    const files = await corpusFiles(o.input);
    if (files.length === 0) throw new UsageError(`convkit-touche: no *.json args.me files in ${o.input}`);
    const topics = await readToucheTopics(join(o.input, "topics.xml"));
    const progress = startProgress("touche", "arguments");
    let last = 0;
    const t0 = performance.now();
    const run = await retrieveTouche(
      files,
      topics,
      { kind: o.model, mu: o.mu, k1: o.k1, b: o.b },
      {
        depth: o.depth,
        tag: o.tag,
        onPass: (_pass, n) => {
          progress.tick(n > last ? n - last : n);
          last = n;
        },
      },
    );
    progress.done();
    await writeRun(join(o.output, "run.txt"), [run]);
    process.stderr.write(
      `${topics.length} topics, ${run.length} lines in ${((performance.now() - t0) / 1000).toFixed(2)} s\n`,
    );
    return 0;
  },
});

/** `convkit-touche eval`. */
export const evalCommand = defineCommand({
  name: "convkit-touche eval",
  summary:
    "nDCG@5 of a run for relevance and for quality (trec_eval's ndcg_cut.5; -2 spam non-relevant), mean and, with -q, per topic.",
  positionals: { name: "RUN", description: "a TREC run (run.txt)", min: 1, max: 1 },
  options: [
    { name: "relevance", type: "string", metavar: "FILE", required: true, description: "relevance qrels" },
    { name: "quality", type: "string", metavar: "FILE", required: true, description: "quality qrels" },
    { name: "q", short: "q", type: "boolean", description: "per-topic values too" },
    {
      name: "c",
      short: "c",
      type: "boolean",
      description: "average over every judged topic (a topic the run lacks counts 0)",
    },
  ],
  async run(o, [runFile]) {
    const run = await collect(readRun(runFile));
    const e = evaluateTouche(run, await loadQrels(o.relevance), await loadQrels(o.quality), {
      allTopics: o.c,
    });
    let out = "";
    for (const [kind, v] of [
      ["relevance", e.relevance],
      ["quality", e.quality],
    ] as const) {
      if (o.q) for (const [qid, x] of v.perTopic) out += `ndcg_cut_5_${kind}\t${qid}\t${x.toFixed(4)}\n`;
      out += `ndcg_cut_5_${kind}\tall\t${v.mean.toFixed(4)}\n`;
    }
    await writeStdout(out);
    return 0;
  },
});
