// convkit-baselines: ClariQ's BM25, NoQuestion and clarification-need baselines as run files.
import {
  bankIndex,
  ContextOracle,
  constantRun,
  fitCentroids,
  majorityLabel,
  multiTurnBm25Threads,
  needFeatures,
  predictCentroid,
  singleTurnBm25,
  topicLabels,
  topicOracle,
} from "@convkit/baselines";
import { weightedPrf } from "@convkit/clariq-eval";
import { defineCommand, type OptionSpec } from "@convkit/cli";
import {
  clariqFile,
  collect,
  readClariqRows,
  readQuestionBank,
  scanEvalDict,
  writeClarificationNeedRun,
  writeMultiTurnRun,
} from "@convkit/formats";
import { planClariqSets, splitPlans } from "@convkit/gen-synthetic";
import { formatPyFloat } from "@convkit/pycompat";
import { sampleData } from "@convkit/sample-data";
import { clariqTerms } from "@convkit/text";
import { writeRun } from "@convkit/trec-eval";

const common = [
  {
    name: "data",
    type: "string",
    metavar: "DIR",
    default: sampleData("clariq"),
    description: "ClariQ data folder (train/dev/test_with_labels TSVs, question_bank.tsv)",
  },
  {
    name: "split",
    type: "string",
    default: "dev",
    choices: ["train", "dev", "test"],
    description: "topics to run on",
  },
  { name: "out", short: "o", type: "string", default: "-", description: "run file to write (- for stdout)" },
] as const satisfies readonly OptionSpec[];

const splitFile = (data: string, split: string) =>
  clariqFile(data, split === "test" ? "test_with_labels.tsv" : `${split}.tsv`);

async function requests(data: string, split: string): Promise<Map<number, string>> {
  const topics = new Map<number, string>();
  for (const r of await collect(readClariqRows(splitFile(data, split))))
    if (!topics.has(r.topic_id)) topics.set(r.topic_id, r.initial_request);
  return topics;
}

/** `convkit-baselines single-turn`: the ClariQ single-turn BM25 notebook. */
export const singleTurnCommand = defineCommand({
  name: "convkit-baselines single-turn",
  summary:
    "BM25 question ranking: each topic's initial request against the question bank, top 30 (lines `topic 0 qid i 30-i bm25`).",
  options: [
    ...common,
    { name: "depth", type: "integer", min: 1, default: 30, description: "questions per topic" },
  ],
  async run(o) {
    const bank = await collect(readQuestionBank(clariqFile(o.data, "question_bank.tsv")));
    const run = singleTurnBm25(bank, await requests(o.data, o.split), o.depth);
    await writeRun(o.out, [run], { firstRank: 0 });
    return 0;
  },
});

/** `convkit-baselines multi-turn`: the ClariQ multi-turn BM25 notebook over the synthetic contexts. */
export const multiTurnCommand = defineCommand({
  name: "convkit-baselines multi-turn",
  summary: "BM25 next question per synthetic context: request + history, top 5, the first not asked yet.",
  options: [
    ...common,
    { name: "qulac", type: "string", metavar: "FILE", description: "qulac.json (topics <= 200)" },
    {
      name: "threads",
      type: "integer",
      min: 1,
      metavar: "N",
      default: 1,
      description: "worker threads (one topic per task; output identical for any N)",
    },
  ],
  async run(o) {
    const bank = await collect(readQuestionBank(clariqFile(o.data, "question_bank.tsv")));
    const sets = await planClariqSets(o.data, o.qulac);
    const run = await multiTurnBm25Threads(bank, splitPlans(sets, o.split), sets.numbers, o.threads);
    await writeMultiTurnRun(o.out, [run]);
    return 0;
  },
});

/** `convkit-baselines no-question`: Q00001 for every topic. */
export const noQuestionCommand = defineCommand({
  name: "convkit-baselines no-question",
  summary: "The NoQuestion baseline: Q00001 (no question) for every topic.",
  options: common,
  async run(o) {
    const topics = await requests(o.data, o.split);
    const run = [...topics.keys()].map((t) => ({
      qid: String(t),
      q0: "0",
      docno: "Q00001",
      rank: 1,
      score: 1,
      tag: "no_question",
    }));
    await writeRun(o.out, [run]);
    return 0;
  },
});

/** `convkit-baselines clarification-need`: the train set's majority label or a model fit on train, with its P/R/F1. */
export const clarificationNeedCommand = defineCommand({
  name: "convkit-baselines clarification-need",
  summary:
    "Predicts each topic's clarification need (1-4) and prints weighted P/R/F1 as the ClariQ tool does. Models: `majority` (the train topics' most frequent label) and `bm25-centroid` (nearest centroid, fit on train, over z-scored statistics of the request's five best BM25 scores against the question bank: top score, mean, top minus fifth).",
  options: [
    ...common,
    {
      name: "model",
      type: "string",
      default: "majority",
      choices: ["majority", "bm25-centroid"],
      description: "which baseline",
    },
  ],
  async run(o) {
    const data = o.data;
    const trainRows = await collect(readClariqRows(splitFile(data, "train")));
    const train = topicLabels(trainRows);
    const rows = await collect(readClariqRows(splitFile(data, o.split)));
    const gold = topicLabels(rows);
    let run: { topic_id: number; label: number }[];
    let name: string;
    if (o.model === "majority") {
      const label = majorityLabel(train);
      run = constantRun(gold.keys(), label);
      name = `majority label ${label}`;
    } else {
      const index = bankIndex(await collect(readQuestionBank(clariqFile(data, "question_bank.tsv"))));
      const features = (rs: typeof rows) => {
        const out = new Map<number, number[]>();
        for (const r of rs)
          if (!out.has(r.topic_id))
            out.set(r.topic_id, needFeatures(index.scores(clariqTerms(r.initial_request))));
        return out;
      };
      const xs: number[][] = [];
      const ys: number[] = [];
      for (const [topic, f] of features(trainRows)) {
        const label = train.get(topic);
        // Both come from the train rows: a topic without a label is a bug here, not bad input.
        if (label === undefined) throw new Error(`bm25-centroid: train topic ${topic} has no label`);
        xs.push(f);
        ys.push(label);
      }
      const model = fitCentroids(xs, ys);
      run = [...features(rows)].map(([topic_id, f]) => ({ topic_id, label: predictCentroid(model, f) }));
      name = "bm25-centroid";
    }
    await writeClarificationNeedRun(o.out, [run]);
    const { precision, recall, f1 } = weightedPrf(
      [...gold.values()],
      run.map((r) => r.label),
    );
    process.stderr.write(
      `${name}: Precision ${formatPyFloat(precision)} Recall ${formatPyFloat(recall)} F1 ${formatPyFloat(f1)}\n`,
    );
    return 0;
  },
});

/** `convkit-baselines oracle`: BestQuestion / WorstQuestion from an eval dict. */
export const oracleCommand = defineCommand({
  name: "convkit-baselines oracle",
  summary:
    "The BestQuestion / WorstQuestion oracles from an eval dict (plain .pkl, .pkl.tar.gz or split parts): single-turn, one question per topic maximizing (minimizing) the metric summed over the topic's facets (a missing question counts the facet's MIN); with --multi_turn, per context the question with the highest (lowest) value. Ties keep the first question in dict order.",
  options: [
    ...common,
    {
      name: "eval_dict",
      type: "string",
      metavar: "FILE",
      required: true,
      description: "the eval dict to read",
    },
    {
      name: "kind",
      type: "string",
      default: "best",
      choices: ["best", "worst"],
      description: "which oracle",
    },
    {
      name: "metric",
      type: "string",
      default: "MRR100",
      description: "metric to optimize (NDCG1..20, P1..20, MRR100)",
    },
    {
      name: "variant",
      type: "string",
      default: "with_answer",
      choices: ["with_answer", "no_answer"],
      description: "value to optimize",
    },
    {
      name: "multi_turn",
      type: "boolean",
      default: false,
      description: "a multi-turn dict (contexts), writing a multi-turn run",
    },
  ],
  async run(o) {
    const kind = o.kind;
    const tag = `${kind}_question_oracle`;
    if (o.multi_turn) {
      const oracle = new ContextOracle(o.metric, kind, o.variant);
      await scanEvalDict(o.eval_dict, (m, c, q, na, wa) => oracle.add(m, c, q, na, wa));
      const text = new Map(
        (await collect(readQuestionBank(clariqFile(o.data, "question_bank.tsv")))).map((q) => [
          q.question_id,
          q.question,
        ]),
      );
      const run = [...oracle.choices()].map(([c, q]) => ({
        context_id: Number(c),
        q0: "0",
        question: q === "Q00001" ? "" : (text.get(q) ?? q),
        rank: 0,
        score: 1,
        run: tag,
      }));
      await writeMultiTurnRun(o.out, [run]);
      return 0;
    }
    const facets = new Map<string, Map<string, number>>();
    await scanEvalDict(o.eval_dict, (m, c, q, na, wa) => {
      if (m !== o.metric) return;
      const f = facets.get(String(c)) ?? new Map<string, number>();
      f.set(q, o.variant === "with_answer" ? wa : na);
      facets.set(String(c), f);
    });
    const topics = new Map<number, string[]>();
    for (const r of await collect(readClariqRows(splitFile(o.data, o.split)))) {
      const fs = topics.get(r.topic_id) ?? [];
      if (!fs.includes(r.facet_id)) fs.push(r.facet_id);
      topics.set(r.topic_id, fs);
    }
    const run = [...topicOracle(facets, topics, kind)].map(([t, q]) => ({
      qid: String(t),
      q0: "0",
      docno: q,
      rank: 1,
      score: 1,
      tag,
    }));
    await writeRun(o.out, [run]);
    return 0;
  },
});
