// convkit-baselines: ClariQ's BM25, NoQuestion and clarification-need baselines as run files.
import { join } from "node:path";
import {
  bankIndex,
  constantRun,
  majorityLabel,
  multiTurnBm25,
  singleTurnBm25,
  topicLabels,
} from "@convkit/baselines";
import { weightedPrf } from "@convkit/clariq-eval";
import type { CommandSpec, OptionSpec } from "@convkit/cli";
import {
  collect,
  readClariqRows,
  readQuestionBank,
  writeClarificationNeedRun,
  writeMultiTurnRun,
  writeRun,
} from "@convkit/formats";
import { formatPyFloat } from "@convkit/io";
import { planClariqSets, splitPlans } from "@convkit/synthetic-sets";

const common: OptionSpec[] = [
  {
    name: "data",
    type: "string",
    metavar: "DIR",
    default: "data/clariq",
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
];

const splitFile = (data: string, split: string) =>
  join(data, split === "test" ? "test_with_labels.tsv" : `${split}.tsv`);

async function requests(data: string, split: string): Promise<Map<number, string>> {
  const topics = new Map<number, string>();
  for (const r of await collect(readClariqRows(splitFile(data, split))))
    if (!topics.has(r.topic_id)) topics.set(r.topic_id, r.initial_request);
  return topics;
}

/** `convkit-baselines single-turn`: the ClariQ single-turn BM25 notebook. */
export const singleTurnCommand: CommandSpec = {
  name: "convkit-baselines single-turn",
  summary:
    "BM25 question ranking: each topic's initial request against the question bank, top 30 (lines `topic 0 qid i 30-i bm25`).",
  options: [...common, { name: "depth", type: "string", default: "30", description: "questions per topic" }],
  async run(o) {
    const bank = await collect(readQuestionBank(join(o.data as string, "question_bank.tsv")));
    const run = singleTurnBm25(bank, await requests(o.data as string, o.split as string), Number(o.depth));
    await writeRun(o.out as string, [run], { firstRank: 0 });
    return 0;
  },
};

/** `convkit-baselines multi-turn`: the ClariQ multi-turn BM25 notebook over the synthetic contexts. */
export const multiTurnCommand: CommandSpec = {
  name: "convkit-baselines multi-turn",
  summary: "BM25 next question per synthetic context: request + history, top 5, the first not asked yet.",
  options: [
    ...common,
    { name: "qulac", type: "string", metavar: "FILE", description: "qulac.json (topics <= 200)" },
  ],
  async run(o) {
    const bank = await collect(readQuestionBank(join(o.data as string, "question_bank.tsv")));
    const sets = await planClariqSets(o.data as string, o.qulac as string | undefined);
    const run = multiTurnBm25(bank, splitPlans(sets, o.split as string), sets.numbers, bankIndex(bank));
    await writeMultiTurnRun(o.out as string, [run]);
    return 0;
  },
};

/** `convkit-baselines no-question`: Q00001 for every topic. */
export const noQuestionCommand: CommandSpec = {
  name: "convkit-baselines no-question",
  summary: "The NoQuestion baseline: Q00001 (no question) for every topic.",
  options: common,
  async run(o) {
    const topics = await requests(o.data as string, o.split as string);
    const run = [...topics.keys()].map((t) => ({
      qid: String(t),
      q0: "0",
      docno: "Q00001",
      rank: 1,
      score: 1,
      tag: "no_question",
    }));
    await writeRun(o.out as string, [run]);
    return 0;
  },
};

/** `convkit-baselines clarification-need`: the train set's majority label, with its P/R/F1. */
export const clarificationNeedCommand: CommandSpec = {
  name: "convkit-baselines clarification-need",
  summary:
    "Predicts the train topics' majority clarification-need label for every topic; prints weighted P/R/F1 as the ClariQ tool does.",
  options: common,
  async run(o) {
    const train = topicLabels(await collect(readClariqRows(splitFile(o.data as string, "train"))));
    const gold = topicLabels(await collect(readClariqRows(splitFile(o.data as string, o.split as string))));
    const label = majorityLabel(train);
    const run = constantRun(gold.keys(), label);
    await writeClarificationNeedRun(o.out as string, [run]);
    const { precision, recall, f1 } = weightedPrf(
      [...gold.values()],
      run.map((r) => r.label),
    );
    process.stderr.write(
      `majority label ${label}: Precision ${formatPyFloat(precision)} Recall ${formatPyFloat(recall)} F1 ${formatPyFloat(f1)}\n`,
    );
    return 0;
  },
};
