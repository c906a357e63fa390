// gen:eval end to end: synthetic contexts + candidate documents + qrels → eval dicts, topic by topic in a pool.

import { existsSync } from "node:fs";
import { readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import {
  clariqFile,
  collect,
  detectFormat,
  readQuestionBank,
  readQulacJson,
  readSyntheticJsonl,
  type SyntheticRecord,
  syntheticRecords,
} from "@convkit/formats";
import { planClariqSets, splitPlans } from "@convkit/gen-synthetic";
import { checkOutputPath, InputError, withTempDir } from "@convkit/io";
import type { Codec } from "@convkit/parquet";
import { readPickleFile } from "@convkit/pickle";
import { inOrder, openTaskPool, type TaskPool } from "@convkit/pool";
import { type CollectionStats, parseCollectionStats } from "@convkit/retrieval";
import {
  decodeQulacId,
  NO_QUESTION,
  type QulacTopic,
  qulacRecords,
  qulacTopics,
  type TopicNumbers,
  type TopicPlan,
  topicContexts,
} from "@convkit/synthetic-plan";
import { qulacTerms } from "@convkit/text";
import {
  MetricSpools,
  type SpoolReader,
  writeJsonDict,
  writeParquetDict,
  writePickleTarGzDict,
  writeQulacDict,
} from "./dict-writers.js";
import { loadDocumentStore, readCandidateLists, readFacetQrels } from "./inputs.js";
import { evaluateTextTopic, type TextTopicTask } from "./text-topic.js";
import type { Candidate, ContextTask, RankingOptions, TopicResult, TopicTask } from "./topic-eval.js";

/** Options of {@link generateEvalDicts}. */
export interface GenEvalOptions {
  /** ClariQ data dir (train/dev/test_with_labels TSVs), as for gen:synthetic. */
  data: string;
  qulac?: string;
  split: string;
  /** Contexts with at most this many history turns (0..2). */
  maxHistory?: number;
  /** Single-turn layout: empty-history contexts keyed by facet id (`single_turn_*_eval`). */
  singleTurn?: boolean;
  /**
   * Qulac's flavour: topics, facets and questions from `qulac` alone (no `data`), contexts keyed
   * `topic-facet[-h1][-h2]`, qrels keyed `topic-facet`, output `{metric: {record_id_with_flag: value}}`.
   */
  qulacIds?: boolean;
  /**
   * Contexts from synthetic records instead of planning them: gen:synthetic's JSONL or the
   * published `{split}_synthetic.pkl` (plain, tar.gz or split parts). Question ids come from
   * `data`'s question_bank.tsv; every topic of the file is evaluated.
   */
  contexts?: string;
  /** Candidate documents per topic: TREC run or pickle. */
  docs: string;
  /** Document texts: TrecWeb, ClueWeb22 JSONL, JSONL. */
  texts: readonly string[];
  /** Facet qrels. */
  qrels: string;
  /** Collection statistics file; absent: each topic's own documents. */
  stats?: string;
  /** Documents ranked per topic (default 1,000). */
  depth?: number;
  ranking: RankingOptions;
  /** Output path prefix: `PREFIX.pkl.tar.gz`, `PREFIX.json`. */
  out: string;
  /** `pickle` and `json` (ClariQ's layout); `qulac-json` (Qulac's flat layout); `parquet` (a long table). */
  formats: readonly ("pickle" | "json" | "qulac-json" | "parquet")[];
  /** Page compression of the Parquet table (zstd by default). */
  compression?: Codec;
  /** [i, N]: this process takes topics i, i+N, i+2N, … (0-based) of the split. */
  shard?: readonly [number, number];
  threads?: number;
  topics?: ReadonlySet<number>;
  onTopic?: (done: number, total: number) => void;
}

/** What was written. */
export interface GenEvalSummary {
  topics: number;
  contexts: number;
  queries: number;
  files: string[];
}

/** One topic's share of the work before documents are attached. */
interface TopicUnit {
  topic_id: number;
  request: string;
  facets: string[];
  contexts: () => ContextTask[];
}

/**
 * Qulac's contexts: per facet, every unordered history of up to `maxHistory` of the topic's
 * questions (ascending), keyed `topic-facet[-h1][-h2]`; candidates are the other questions, keyed
 * by their number (Qulac's dicts have no no-question entry and no MAX/MIN).
 */
function qulacContextTasks(t: QulacTopic, maxHistory: number): ContextTask[] {
  const out: ContextTask[] = [];
  const terms = new Map<string, string[]>();
  const tm = (s: string) => {
    let v = terms.get(s);
    if (!v) {
      v = qulacTerms(s);
      terms.set(s, v);
    }
    return v;
  };
  const byKey = new Map<string, { question: string; answer: string; history: string[][] }[]>();
  // The candidates of the context pushed last, which a record adds to.
  let candidates: Candidate[] = [];
  for (const r of qulacRecords(t, maxHistory)) {
    const key = r.history_id;
    let l = byKey.get(key);
    if (!l) {
      l = [];
      byKey.set(key, l);
      candidates = [];
      out.push({
        key,
        facet: key.split("-").slice(0, 2).join("-"),
        history: r.history_list.map((h) => [...tm(h.question), ...tm(h.answer)]),
        candidates,
      });
    }
    candidates.push({
      question_id: String(decodeQulacId(r.record_id).question),
      question: tm(r.question),
      answer: tm(r.answer),
    });
  }
  return out;
}

/** The contexts of one topic as tasks: dict keys, facets, history terms, candidates (sorted by id, `Q00001` included). */
export function topicContextTasks(
  plan: TopicPlan,
  nums: TopicNumbers,
  maxHistory: number,
  singleTurn: boolean,
): ContextTask[] {
  const terms = new Map<string, string[]>();
  const t = (s: string) => {
    let v = terms.get(s);
    if (!v) {
      v = qulacTerms(s);
      terms.set(s, v);
    }
    return v;
  };
  const out: ContextTask[] = [];
  for (const c of topicContexts(plan, nums, singleTurn ? 0 : maxHistory)) {
    const row = plan.answers[c.facet];
    const facet = plan.facets[c.facet];
    // topicContexts numbers the plan's own facets and their answers: anything else is a bug.
    if (row === undefined || facet === undefined)
      throw new RangeError(`no facet ${c.facet} in topic ${plan.topic_id}`);
    const turnTerms = (h: number) => {
      const turn = row[h];
      if (turn === undefined) throw new RangeError(`no answer ${h} of facet ${facet}`);
      return [...t(turn.question), ...t(turn.answer)];
    };
    const asked = new Set(c.history);
    const candidates: Candidate[] = [{ question_id: NO_QUESTION, question: [], answer: [] }];
    row.forEach((it, i) => {
      if (!asked.has(i))
        candidates.push({ question_id: it.question_id, question: t(it.question), answer: t(it.answer) });
    });
    candidates.sort((a, b) => (a.question_id < b.question_id ? -1 : a.question_id > b.question_id ? 1 : 0));
    out.push({
      key: singleTurn ? facet : c.context_id,
      facet,
      history: c.history.map(turnTerms),
      candidates,
    });
  }
  return out;
}

/** The topics a run evaluates, in output order (the split's plan, filtered by `topics` and `shard`). */
async function topicsToEvaluate(o: GenEvalOptions): Promise<TopicUnit[]> {
  let plans: TopicUnit[];
  const maxHistory = o.maxHistory ?? 2;
  if (o.contexts) {
    plans = await recordUnits(o.contexts, o.data);
  } else if (o.qulacIds) {
    if (!o.qulac) throw new InputError("--qulac", {}, "qulac.json for Qulac's flavour", "none");
    plans = qulacTopics(await readQulacJson(o.qulac)).map((t) => ({
      topic_id: t.topic,
      request: t.query,
      facets: t.facets.map((f) => `${t.topic}-${f}`),
      contexts: () => qulacContextTasks(t, o.singleTurn ? 0 : maxHistory),
    }));
  } else {
    const sets = await planClariqSets(o.data, o.qulac);
    plans = splitPlans(sets, o.split).map((p) => ({
      topic_id: p.topic_id,
      request: p.initial_request,
      facets: p.facets,
      contexts: () => {
        const numbers = sets.numbers.get(p.topic_id);
        if (numbers === undefined) throw new Error(`no context numbers for topic ${p.topic_id}`);
        return topicContextTasks(p, numbers, maxHistory, o.singleTurn === true);
      },
    }));
  }
  plans = plans.filter((p) => !o.topics || o.topics.has(p.topic_id));
  if (o.shard) {
    const [i, n] = o.shard;
    plans = plans.filter((_, k) => k % n === i);
  }
  return plans;
}

/**
 * Evaluates `plans` (topics in order) into `spools`: documents, texts and qrels read for these
 * topics only; topics in a piscina pool when `threads` > 1 or `pool` is given (results in topic
 * order: the same bytes for any thread count). Returns the queries run.
 */
async function evaluateToSpools(
  o: GenEvalOptions,
  plans: readonly TopicUnit[],
  spools: MetricSpools,
  pool?: GenEvalPool,
): Promise<number> {
  const depth = o.depth ?? 1000;
  const lists = await readCandidateLists(o.docs, depth);
  const wanted = new Set<string>();
  for (const p of plans) for (const d of lists.get(p.topic_id) ?? []) wanted.add(d);
  const texts = await loadDocumentStore(o.texts, wanted);
  for (const p of plans)
    for (const d of lists.get(p.topic_id) ?? [])
      if (!texts.has(d))
        throw new InputError(
          o.texts.join(", "),
          {},
          `the text of document ${d} (topic ${p.topic_id})`,
          "no such document",
        );
  const qrels = await readFacetQrels(o.qrels);
  let stats: TopicTask["stats"];
  if (o.stats) {
    const s: CollectionStats = parseCollectionStats(await readFile(o.stats, "utf8"), o.stats);
    stats = { cf: [...s.cf], totalLength: s.totalLength };
  }
  // Texts still needed by topics not yet handed out: a text leaves memory with its last topic.
  const uses = new Map<string, number>();
  for (const p of plans) for (const d of lists.get(p.topic_id) ?? []) uses.set(d, (uses.get(d) ?? 0) + 1);
  async function* tasks(): AsyncGenerator<TextTopicTask> {
    for (const p of plans) {
      const docnos = lists.get(p.topic_id);
      if (!docnos) throw new InputError(o.docs, {}, `candidate documents for topic ${p.topic_id}`, "none");
      const docTexts = await texts.texts(docnos);
      for (const d of docnos) {
        const used = uses.get(d);
        if (used === undefined) throw new Error(`no use count for document ${d}`);
        const left = used - 1;
        uses.set(d, left);
        if (left === 0) texts.release(d);
      }
      const facetQrels: Record<string, [string, number][]> = {};
      for (const f of p.facets) facetQrels[f] = qrels.get(f) ?? [];
      yield {
        topic_id: p.topic_id,
        requestText: p.request,
        docnos,
        docTexts,
        qrels: facetQrels,
        contexts: p.contexts(),
        stats,
        ranking: o.ranking,
      };
    }
  }
  let queries = 0;
  const threads = pool?.threads ?? o.threads ?? 1;
  const own = pool === undefined && threads > 1 ? await openGenEvalPool(threads) : undefined;
  const run = pool ?? own;
  try {
    const start = (t: TextTopicTask) => {
      queries += t.contexts.reduce((a, c) => a + 2 * c.candidates.length, 0);
      return run ? run.run(t) : Promise.resolve().then(() => evaluateTextTopic(t));
    };
    let done = 0;
    // One topic per thread in flight and one waiting: topics are large, memory holds only these.
    for await (const r of inOrder(tasks(), start, threads + 1)) {
      await spools.add(r);
      o.onTopic?.(++done, plans.length);
    }
  } finally {
    await own?.destroy();
    await texts.close();
  }
  return queries;
}

/** The dict files of the formats asked for. */
function dictFiles(o: Pick<GenEvalOptions, "out" | "formats">): string[] {
  const files: string[] = [];
  if (o.formats.includes("pickle")) files.push(`${o.out}.pkl.tar.gz`);
  if (o.formats.includes("json")) files.push(`${o.out}.json`);
  if (o.formats.includes("qulac-json")) files.push(`${o.out}.qulac.json`);
  if (o.formats.includes("parquet")) files.push(`${o.out}.parquet`);
  return files;
}

/** The eval dicts of `spools` in the formats asked for; returns the files written. */
async function writeEvalDicts(
  o: Pick<GenEvalOptions, "out" | "formats" | "compression" | "contexts" | "singleTurn" | "qulacIds">,
  spools: SpoolReader,
): Promise<string[]> {
  if (o.formats.includes("pickle"))
    await writePickleTarGzDict(`${o.out}.pkl.tar.gz`, `${baseName(o.out)}.pkl`, spools);
  if (o.formats.includes("json")) await writeJsonDict(`${o.out}.json`, spools);
  if (o.formats.includes("qulac-json")) await writeQulacDict(`${o.out}.qulac.json`, spools);
  if (o.formats.includes("parquet"))
    await writeParquetDict(`${o.out}.parquet`, spools, {
      // The dict's keys: facet ids (single-turn) and Qulac's history ids are strings; context ids
      // (ClariQ's numbering, or a published set's) ints.
      stringContexts: o.contexts === undefined && (o.singleTurn === true || o.qulacIds === true),
      codec: o.compression,
    });
  return dictFiles(o);
}

/** A pool of gen:eval's topic workers (worker threads), made once and shared. */
export type GenEvalPool = TaskPool<TextTopicTask, TopicResult>;

/** Opens the pool gen:eval's topics run on. */
export function openGenEvalPool(threads: number): Promise<GenEvalPool> {
  return openTaskPool<TextTopicTask, TopicResult>({
    worker: new URL("./worker.js", import.meta.url),
    threads,
    // A topic's live set is tens of MB; without a cap V8 lets each worker's heap grow lazily.
    maxOldGenerationSizeMb: 384,
  });
}

/**
 * Regenerates an eval dict. Topics are evaluated in a piscina pool (one task per topic, results
 * taken in topic order, so the output is the same for any thread count) and spooled per metric;
 * the dicts are then streamed out. Memory holds the shard's candidate document texts and a few
 * topics' results, never the dict.
 */
export async function generateEvalDicts(o: GenEvalOptions): Promise<GenEvalSummary> {
  // The outputs checked before any work: a folder in the way or a read-only one is one line.
  for (const f of dictFiles(o)) await checkOutputPath(f);
  const plans = await topicsToEvaluate(o);
  // The spools live in a temp folder beside the output: removed at the end, on a failure, on a
  // signal, and (when a killed run left it) by the next run writing this output.
  return withTempDir(o.out, async (dir) => {
    const spools = new MetricSpools(join(dir, "spool"));
    await spools.open();
    try {
      const queries = await evaluateToSpools(o, plans, spools);
      await spools.close();
      const files = await writeEvalDicts(o, spools);
      return { topics: plans.length, contexts: spools.contexts, queries, files };
    } finally {
      await spools.close().catch(() => {});
      await spools.remove();
    }
  });
}

/** Options a queued gen:eval carries (paths absolute: the workers run elsewhere). */
export type QueuedGenEvalOptions = Omit<GenEvalOptions, "threads" | "onTopic" | "shard" | "topics">;

/** A queued unit: a group of topics and where its spools go. */
export interface GenEvalUnitData {
  options: QueuedGenEvalOptions;
  topics: number[];
  /** Spool prefix of the unit, fixed by the run (`OUT.queue-RUN/unit-00012`). */
  spools: string;
}

/** The folder of a queued run's spools, beside its output: `OUT.queue-RUN`. */
export function queuedEvalSpoolDir(out: string, runId: string): string {
  return `${out}.queue-${runId}`;
}

/** What a unit did: its contexts and queries (the spools are on disk). */
export interface GenEvalUnitResult {
  topics: number;
  contexts: number;
  queries: number;
}

/**
 * A run on the queue, planned: the topics (in output order) cut into groups of `perJob`, each a
 * unit spooling to a fixed place beside the output.
 */
export async function planQueuedEval(
  o: QueuedGenEvalOptions,
  runId: string,
  perJob: number,
): Promise<{ units: GenEvalUnitData[]; topics: number }> {
  const plans = await topicsToEvaluate(o);
  const units: GenEvalUnitData[] = [];
  for (let i = 0; i < plans.length; i += perJob)
    units.push({
      options: o,
      topics: plans.slice(i, i + perJob).map((p) => p.topic_id),
      spools: join(queuedEvalSpoolDir(o.out, runId), `unit-${String(units.length).padStart(5, "0")}`),
    });
  return { units, topics: plans.length };
}

/**
 * A queued unit: its topics evaluated on a worker's pool into spool files that appear whole
 * (written under a temporary prefix, then renamed): running it again writes the same bytes.
 */
export async function evaluateQueuedTopics(
  data: GenEvalUnitData,
  pool: GenEvalPool,
  onTopic: (done: number) => void,
): Promise<GenEvalUnitResult> {
  const wanted = new Set(data.topics);
  const o: GenEvalOptions = { ...data.options, topics: wanted, onTopic };
  const plans = await topicsToEvaluate(o);
  // Process ids repeat across machines and containers: a random part keeps two writers apart.
  const tmp = new MetricSpools(`${data.spools}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  await tmp.open();
  try {
    const queries = await evaluateToSpools(o, plans, tmp, pool);
    await tmp.close();
    const final = new MetricSpools(data.spools);
    for (const [m, from] of tmp.files.entries()) {
      const to = final.files[m];
      if (to === undefined) throw new RangeError(`no spool file ${m}`);
      await rename(from, to);
    }
    return { topics: plans.length, contexts: tmp.contexts, queries };
  } finally {
    await tmp.close().catch(() => {});
    await tmp.remove();
  }
}

/**
 * A queued run's end: the dicts written from the units' spools in unit order, then the spools
 * removed. Done again after that (the job taken again after its worker died), it finds the
 * dicts written and the spools gone, and reports the same.
 */
export async function finishQueuedEval(
  options: QueuedGenEvalOptions,
  spoolDir: string,
  unitSpools: readonly string[],
  results: readonly GenEvalUnitResult[],
): Promise<GenEvalSummary> {
  const parts = unitSpools.map((p) => new MetricSpools(p));
  const files = dictFiles(options);
  const firstSpool = parts[0]?.files[0];
  const written = firstSpool !== undefined && !existsSync(firstSpool) && files.every((f) => existsSync(f));
  if (!written) {
    const chain: SpoolReader = {
      async *read(m) {
        for (const s of parts) yield* s.read(m);
      },
    };
    await writeEvalDicts(options, chain);
  }
  await discardQueuedEval(spoolDir);
  return {
    topics: results.reduce((n, r) => n + r.topics, 0),
    contexts: results.reduce((n, r) => n + r.contexts, 0),
    queries: results.reduce((n, r) => n + r.queries, 0),
    files,
  };
}

/** Removes a queued run's spools (its end, or a run that failed: no dict is written then). */
export async function discardQueuedEval(spoolDir: string): Promise<void> {
  await rm(spoolDir, { recursive: true, force: true });
}

function baseName(p: string): string {
  return p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);
}

/** Topic units from synthetic records (JSONL or the published pickle), grouped by topic and context. */
async function recordUnits(path: string, data: string): Promise<TopicUnit[]> {
  const bank = new Map<string, string>();
  for (const q of await collect(readQuestionBank(clariqFile(data, "question_bank.tsv"))))
    if (!bank.has(q.question)) bank.set(q.question, q.question_id);
  const records: SyntheticRecord[] = [];
  if (["pickle", "tar"].includes((await detectFormat(path)) ?? "")) {
    for (const r of syntheticRecords(path, await readPickleFile(path))) records.push(r);
  } else {
    for await (const b of readSyntheticJsonl(path)) records.push(...b);
  }
  const topics = new Map<
    number,
    { request: string; facets: Set<string>; contexts: Map<number, SyntheticRecord[]> }
  >();
  for (const r of records) {
    let t = topics.get(r.topic_id);
    if (!t) {
      t = { request: r.initial_request, facets: new Set(), contexts: new Map() };
      topics.set(r.topic_id, t);
    }
    t.facets.add(r.facet_id);
    const c = t.contexts.get(r.context_id) ?? [];
    c.push(r);
    t.contexts.set(r.context_id, c);
  }
  return [...topics]
    .sort((a, b) => a[0] - b[0])
    .map(([topic_id, t]) => ({
      topic_id,
      request: t.request,
      facets: [...t.facets].sort(),
      contexts: () =>
        [...t.contexts]
          .sort((a, b) => a[0] - b[0])
          .map(([key, rs]) => {
            const qid = (r: SyntheticRecord) => {
              const id = bank.get(r.question);
              if (id === undefined)
                throw new InputError(
                  path,
                  {},
                  `record ${r.record_id}'s question in question_bank.tsv`,
                  JSON.stringify(r.question).slice(0, 60),
                );
              return id;
            };
            const candidates: Candidate[] = [
              { question_id: NO_QUESTION, question: [], answer: [] },
              ...rs.map((r) => ({
                question_id: qid(r),
                question: qulacTerms(r.question),
                answer: qulacTerms(r.answer),
              })),
            ].sort((a, b) => (a.question_id < b.question_id ? -1 : a.question_id > b.question_id ? 1 : 0));
            // A context has its records: it was made for the first.
            const [first] = rs;
            if (first === undefined) throw new Error(`no records for context ${key}`);
            return {
              key,
              facet: first.facet_id,
              history: first.conversation_context.map((h) => [
                ...qulacTerms(h.question),
                ...qulacTerms(h.answer),
              ]),
              candidates,
            };
          }),
    }));
}
