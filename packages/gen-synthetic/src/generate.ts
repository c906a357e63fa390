// Planning ClariQ synthetic sets from the TSVs on disk and streaming their records in id order.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type ClariqRow,
  clariqFile,
  collect,
  type QulacRow,
  readClariqRows,
  readQulacJson,
  type SyntheticRecord,
} from "@convkit/formats";
import { ByteBuilder, InputError } from "@convkit/io";
import {
  ABSENT_TOPICS,
  numberTopics,
  planItem,
  planTopics,
  type TopicNumbers,
  type TopicPlan,
  topicCounts,
  topicRecords,
} from "@convkit/synthetic-plan";
import { type JsonStrings, topicJsonl } from "./encode.js";

/** The ClariQ splits and the files they come from. */
export const SPLIT_FILES: Record<string, string> = {
  train: "train.tsv",
  dev: "dev.tsv",
  test: "test_with_labels.tsv",
};

/** Every topic of the three splits planned and numbered (numbering needs all of them). */
export interface PlannedSets {
  plans: TopicPlan[];
  numbers: Map<number, TopicNumbers>;
  /** Topic ids of each split. */
  splits: Map<string, Set<number>>;
  /** Ordered two-turn histories (not ClariQ's sets). */
  ordered: boolean;
  /** Where the splits were read. */
  dataDir: string;
}

/** The file of a split in a data dir (see clariqFile), or undefined when it is not there. */
function splitFile(dataDir: string, split: string): string | undefined {
  const name = SPLIT_FILES[split];
  if (!name) return undefined;
  const file = clariqFile(dataDir, name);
  return existsSync(file) ? file : undefined;
}

/**
 * Reads the splits present in `dataDir` (train, dev, test_with_labels; ClariQ's numbering needs
 * all three) and qulac.json for topics <= 200, and plans every topic.
 */
export async function planClariqSets(
  dataDir: string,
  qulacPath?: string,
  ordered = false,
): Promise<PlannedSets> {
  const rows: ClariqRow[] = [];
  const splits = new Map<string, Set<number>>();
  for (const split of Object.keys(SPLIT_FILES)) {
    const file = splitFile(dataDir, split);
    if (!file) continue;
    const r = await collect(readClariqRows(file));
    splits.set(split, new Set(r.map((x) => x.topic_id)));
    rows.push(...r);
  }
  let qulac: QulacRow[] | undefined;
  if (qulacPath) qulac = await readQulacJson(qulacPath);
  else if (rows.some((r) => r.topic_id <= 200)) {
    throw new InputError(
      dataDir,
      {},
      "qulac.json (--qulac) to order the items of topics <= 200",
      "topics <= 200 without it",
    );
  }
  const plans = planTopics(dataDir, rows, qulac, { skip: ABSENT_TOPICS });
  return { plans, numbers: numberTopics(plans, { ordered }), splits, ordered, dataDir };
}

/** The plans of one split, in topic order. */
export function splitPlans(sets: PlannedSets, split: string): TopicPlan[] {
  const ids = sets.splits.get(split);
  if (!ids)
    throw new InputError(
      join(sets.dataDir, SPLIT_FILES[split] ?? `${split}.tsv`),
      {},
      `the ${split} split's file (also .gz, .bz2) in the data dir (found: ${[...sets.splits.keys()].join(", ") || "none"})`,
      "no such file",
    );
  return sets.plans.filter((p) => ids.has(p.topic_id));
}

/** Record and context counts of a split. */
export function splitCounts(plans: readonly TopicPlan[], ordered = false) {
  let records = 0;
  const contexts: [number, number, number] = [0, 0, 0];
  for (const p of plans) {
    const { contexts: c, records: r } = topicCounts(p, 2, ordered);
    records += r[0] + r[1] + r[2];
    contexts[0] += c[0];
    contexts[1] += c[1];
    contexts[2] += c[2];
  }
  return { records, contexts };
}

/** A planned topic's numbers (numberTopics numbers every plan of the sets but ABSENT_TOPICS'). */
export function planNumbers(sets: PlannedSets, plan: TopicPlan): TopicNumbers {
  const nums = sets.numbers.get(plan.topic_id);
  if (!nums) throw new RangeError(`topic ${plan.topic_id} is not numbered`);
  return nums;
}

/** A unit of work: one history length of several whole topics (together >= `size` records). */
export interface RecordTask {
  level: number;
  topics: { plan: TopicPlan; numbers: TopicNumbers }[];
}

/**
 * The tasks of a split in record-id order: for each pass (topics <= 200, then the rest), for each
 * history length, the split's topics grouped until a task holds at least `size` records.
 */
export function recordTasks(
  sets: PlannedSets,
  plans: readonly TopicPlan[],
  size = 2000,
  firstPassMax = 200,
  maxHistory = 2,
): RecordTask[] {
  const tasks: RecordTask[] = [];
  const byId = [...plans].sort((a, b) => a.topic_id - b.topic_id);
  for (const pass of [
    byId.filter((p) => p.topic_id <= firstPassMax),
    byId.filter((p) => p.topic_id > firstPassMax),
  ]) {
    for (let level = 0; level <= maxHistory; level++) {
      let cur: RecordTask = { level, topics: [] };
      let n = 0;
      for (const plan of pass) {
        cur.topics.push({ plan, numbers: planNumbers(sets, plan) });
        n += planItem(topicCounts(plan, 2, sets.ordered).records, level);
        if (n >= size) {
          tasks.push(cur);
          cur = { level, topics: [] };
          n = 0;
        }
      }
      if (cur.topics.length > 0) tasks.push(cur);
    }
  }
  return tasks;
}

/** The records of a task, in record-id order. */
export function taskRecords(task: RecordTask): SyntheticRecord[] {
  const out: SyntheticRecord[] = [];
  for (const t of task.topics) for (const r of topicRecords(t.plan, t.numbers, [task.level])) out.push(r);
  return out;
}

/** The JSON Lines bytes of a task, written straight from the plans (see `topicJsonl`). */
export function taskJsonl(task: RecordTask, js: JsonStrings, out = new ByteBuilder()): Buffer {
  for (const t of task.topics) topicJsonl(t.plan, t.numbers, task.level, js, out);
  return out.take();
}
