// Writing a split's synthetic set: JSONL (pool-encoded), Parquet, ClariQ's pickle in a tar.gz, a TSV of contexts.
import { join } from "node:path";
import { SYNTHETIC_RECORD_SCHEMA, type SyntheticRecord } from "@convkit/formats";
import { ByteBuilder, type ByteSink, tarGzFile, withTempDir, writeAtomic, writeDelimited } from "@convkit/io";
import { type Codec, ParquetTableWriter } from "@convkit/parquet";
import { PickleWriter } from "@convkit/pickle";
import { inOrder, openTaskPool } from "@convkit/pool";
import { planItem, type TopicPlan, topicContexts, topicCounts } from "@convkit/synthetic-plan";
import { JsonStrings } from "./encode.js";
import {
  type PlannedSets,
  planNumbers,
  type RecordTask,
  recordTasks,
  splitPlans,
  taskJsonl,
} from "./generate.js";
import { topicPickleItems } from "./pickle-records.js";
import { taskColumns } from "./rows.js";

/** Output formats of a split. */
export type SetFormat = "jsonl" | "parquet" | "pickle" | "tsv";

/** Options of {@link writeSyntheticSplit}. */
export interface WriteSetOptions {
  formats: readonly SetFormat[];
  outDir: string;
  gzip?: boolean;
  /** Page compression of the Parquet file (zstd by default). */
  compression?: Codec;
  /** Worker threads for JSONL encoding (1: all on the main thread). */
  threads?: number;
  /** Longest history (0, 1 or 2 turns; ClariQ: 2). Ids stay ClariQ's; shorter sets just stop earlier. */
  maxHistory?: number;
  /** Only these topics of the split (ids are still numbered over all topics). */
  topics?: ReadonlySet<number>;
  /** Called with the number of records done so far. */
  onRecords?: (n: number) => void;
}

/** What was written. */
export interface SplitSummary {
  split: string;
  records: number;
  contexts: number;
  files: string[];
}

/**
 * Writes one split. Records are produced task by task in record-id order; with threads > 1 the
 * JSONL of upcoming tasks is encoded in a piscina pool while the main thread pickles and writes,
 * so the bytes are the same for any thread count. Memory holds a few tasks at a time.
 */
export async function writeSyntheticSplit(
  sets: PlannedSets,
  split: string,
  o: WriteSetOptions,
): Promise<SplitSummary> {
  const maxHistory = o.maxHistory ?? 2;
  const plans = splitPlans(sets, split).filter((p) => !o.topics || o.topics.has(p.topic_id));
  const tasks = recordTasks(sets, plans, 2000, 200, maxHistory);
  const base = join(o.outDir, `${split}_synthetic`);
  const want = new Set(o.formats);
  const files: string[] = [];
  const threads = o.threads ?? 1;
  const pool =
    want.has("jsonl") && threads > 1
      ? await openTaskPool<RecordTask, Uint8Array>({
          worker: new URL("./worker.js", import.meta.url),
          threads,
        })
      : undefined;
  let records = 0;
  const strings = new JsonStrings();
  const builder = new ByteBuilder();
  const pickler = want.has("pickle") ? new PickleWriter() : undefined;
  const pickleState = { open: 0 };
  const pklTarget = `${base}.pkl.tar.gz`;
  // The pickle is made in a temp folder beside its tar.gz (removed on failure and on a signal):
  // its name there is the archive member's, `SPLIT_synthetic.pkl`.
  let pklTmp = "";
  const sinks: { jsonl?: ByteSink; pkl?: ByteSink } = {};
  let parquet: ParquetTableWriter<SyntheticRecord> | undefined;
  const run = async () => {
    pickler?.beginDict();
    // The JSONL of the next tasks is encoded (in the pool) while this one is pickled and written.
    const start = async (task: RecordTask) => ({
      task,
      jsonl: !want.has("jsonl") ? undefined : pool ? await pool.run(task) : taskJsonl(task, strings, builder),
    });
    // Results in flight: enough to keep the pool busy, no more (memory).
    for await (const { task, jsonl } of inOrder(tasks, start, threads + 1)) {
      if (pickler) {
        for (const t of task.topics) topicPickleItems(t.plan, t.numbers, task.level, pickler, pickleState);
        for (const c of pickler.take()) await sinks.pkl!.write(c);
      }
      if (jsonl) await sinks.jsonl!.write(jsonl);
      // Rows made here, on the main thread, where the writer encodes them (the same rows for any --threads).
      if (parquet) await parquet.writeColumns(taskColumns(task));
      for (const t of task.topics)
        records += planItem(topicCounts(t.plan, 2, sets.ordered).records, task.level);
      o.onRecords?.(records);
    }
    if (pickler) {
      if (pickleState.open > 0) pickler.op("SETITEMS");
      pickler.finish();
      for (const c of pickler.take()) await sinks.pkl!.write(c);
    }
    await parquet?.finish();
  };
  try {
    // Nest the atomic writers so every file appears only when all of them are complete.
    const withJsonl = async (inner: () => Promise<void>) =>
      want.has("jsonl")
        ? writeAtomic(
            `${base}.jsonl${o.gzip ? ".gz" : ""}`,
            async (s) => {
              sinks.jsonl = s;
              await inner();
            },
            { gzip: o.gzip === true },
          )
        : inner();
    const withParquet = async (inner: () => Promise<void>) =>
      want.has("parquet")
        ? writeAtomic(`${base}.parquet`, async (s) => {
            parquet = await ParquetTableWriter.open<SyntheticRecord>(s, SYNTHETIC_RECORD_SCHEMA, {
              codec: o.compression,
            });
            await inner();
          })
        : inner();
    const withPkl = async (inner: () => Promise<void>) =>
      want.has("pickle")
        ? writeAtomic(pklTmp, async (s) => {
            sinks.pkl = s;
            await inner();
          })
        : inner();
    if (want.has("pickle"))
      await withTempDir(pklTarget, async (dir) => {
        pklTmp = join(dir, `${split}_synthetic.pkl`);
        await withJsonl(() => withParquet(() => withPkl(run)));
        await tarGzFile(pklTmp, pklTarget);
      });
    else await withJsonl(() => withParquet(run));
  } finally {
    await pool?.destroy();
  }
  if (want.has("jsonl")) files.push(`${base}.jsonl${o.gzip ? ".gz" : ""}`);
  if (want.has("parquet")) files.push(`${base}.parquet`);
  if (want.has("pickle")) files.push(pklTarget);
  let contexts = 0;
  if (want.has("tsv")) {
    contexts = await writeDelimited(
      `${base}.contexts.tsv`,
      ["context_id", "topic_id", "facet_id", "history_length", "history_question_ids", "records"],
      contextRows(plans, sets, maxHistory),
    );
    files.push(`${base}.contexts.tsv`);
  } else
    for (const p of plans) for (const _ of topicContexts(p, planNumbers(sets, p), maxHistory)) contexts++;
  return { split, records, contexts, files };
}

function* contextRows(
  plans: readonly TopicPlan[],
  sets: PlannedSets,
  maxHistory: number,
): Iterable<(string | number)[][]> {
  for (const p of plans) {
    const rows: (string | number)[][] = [];
    for (const c of topicContexts(p, planNumbers(sets, p), maxHistory)) {
      const items = planItem(p.answers, c.facet);
      rows.push([
        c.context_id,
        p.topic_id,
        planItem(p.facets, c.facet),
        c.history.length,
        c.history.map((h) => planItem(items, h).question_id).join(" "),
        c.records,
      ]);
    }
    yield rows;
  }
}
