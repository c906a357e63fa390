// convkit-gen-eval: regenerate document-relevance eval dicts from synthetic contexts, documents and facet qrels.
import { type CommandSpec, parseShard, startProgress } from "@convkit/cli";
import { generateEvalDicts } from "@convkit/eval-dicts";
import { UsageError } from "@convkit/io";

const int = (flag: string, v: unknown, min: number): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`convkit-gen-eval: --${flag} takes an integer >= ${min}`);
  return n;
};
const num = (flag: string, v: unknown): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`convkit-gen-eval: --${flag} takes a positive number`);
  return n;
};

/** The `convkit-gen-eval` command. */
export const genEvalCommand: CommandSpec = {
  name: "convkit-gen-eval",
  summary:
    "Regenerate ClariQ's document-relevance eval dicts: per synthetic context and candidate question (the topic's questions not in the history, plus Q00001), rank the topic's documents for the request plus the question (no_answer) and plus question and answer (with_answer), and score NDCG1/3/5/10/20, P1/3/5/10/20, MRR100 against the facet's qrels, with MAX and MIN per context. Facets without relevant documents are left out.",
  options: [
    {
      name: "data",
      type: "string",
      metavar: "DIR",
      default: "data/clariq",
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
      type: "string",
      metavar: "N",
      default: "2",
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
      type: "string",
      metavar: "N",
      default: "1000",
      description: "documents ranked per topic",
    },
    {
      name: "model",
      type: "string",
      default: "ql",
      choices: ["ql", "dirichlet", "bm25"],
      description: "ql: Qulac's query likelihood; dirichlet: Dirichlet LM on request+QA; bm25",
    },
    { name: "mu", type: "string", default: "1500", description: "Dirichlet mu" },
    { name: "k1", type: "string", description: "BM25 k1 (default 0.9)" },
    { name: "b", type: "string", description: "BM25 b (default 0.4)" },
    {
      name: "float32",
      type: "boolean",
      description: "C float arithmetic as the original query-likelihood code (ties and order depend on it)",
    },
    {
      name: "format",
      type: "string",
      default: "pickle,json",
      description:
        "outputs: pickle (PREFIX.pkl.tar.gz), json (PREFIX.json), qulac-json (PREFIX.qulac.json: {metric: {record_id_with_flag: value}})",
    },
    {
      name: "shard",
      type: "string",
      metavar: "I/N",
      description: "take topics I, I+N, ... of the split (0-based); N runs concatenate per metric",
    },
    {
      name: "threads",
      type: "string",
      metavar: "N",
      default: "1",
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
  ],
  examples: [
    "convkit-gen-eval --data ../shared/data/clariq --qulac ../shared/data/qulac/qulac.json --docs top10k.run --texts docs.jsonl --qrels ../shared/data/clariq/dev.qrel -o out/multi_turn_dev_eval",
  ],
  async run(o) {
    const formats = String(o.format).split(",").filter(Boolean);
    for (const f of formats)
      if (f !== "pickle" && f !== "json" && f !== "qulac-json")
        throw new UsageError(
          `convkit-gen-eval: --format takes pickle,json,qulac-json, not ${JSON.stringify(f)}`,
        );
    const shard = parseShard("convkit-gen-eval", o.shard);
    const maxHistory = int("max-history", o["max-history"], 0);
    if (maxHistory > 2) throw new UsageError("convkit-gen-eval: --max-history takes 0, 1 or 2");
    const t0 = performance.now();
    const progress = startProgress("gen:eval", "topics");
    let last = 0;
    const s = await generateEvalDicts({
      data: o.data as string,
      qulac: o.qulac as string | undefined,
      split: o.split as string,
      singleTurn: o["single-turn"] === true,
      maxHistory,
      docs: o.docs as string,
      texts: o.texts as string[],
      qrels: o.qrels as string,
      stats: o.stats as string | undefined,
      depth: int("depth", o.depth, 1),
      ranking: {
        model: o.model as "ql" | "dirichlet" | "bm25",
        mu: num("mu", o.mu),
        k1: num("k1", o.k1),
        b: num("b", o.b),
        float32: o.float32 === true,
      },
      out: o.out as string,
      formats: formats as ("pickle" | "json" | "qulac-json")[],
      qulacIds: o["qulac-ids"] === true,
      contexts: o.contexts as string | undefined,
      shard,
      threads: int("threads", o.threads, 1),
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
};
