// trec_eval over files, the fast way: qrels and run read as bytes (qrels-bytes.ts, run-bytes.ts),
// each topic judged and measured as soon as its lines are in, so memory holds one topic of the
// run, not the run. The result equals the plain path's (loadQrels + loadRun + trecEval): where
// the bytes are odd the plain path is run instead, and its errors are the ones users see.
import { isParquetFile, isParquetHead, readRun } from "@convkit/formats";
import { InputError, openInput, readAll, readLineUnits } from "@convkit/io";
import {
  emptyTemplate,
  formatSummary,
  MISSING_TOPIC_RANKING,
  summaryValues,
  type TrecEvalOptions,
  topicResult,
  trecEval,
  type Value,
} from "./evaluate.js";
import { ByteJudge } from "./judge-bytes.js";
import { judgeRanking } from "./judged-ranking.js";
import { Declined } from "./line-fields.js";
import { loadRun } from "./load.js";
import type { MeasureSpec } from "./measure-specs.js";
import { strcmpOrder } from "./order.js";
import { type ByteQrels, bytesSource } from "./qrels-bytes.js";
import { Interleaved, RunScanner } from "./run-bytes.js";
import { compact, type TopicValues } from "./topic-values.js";

/** Options: trec_eval's, and whether to keep each topic's -q lines. */
export interface FileEvalOptions extends TrecEvalOptions {
  perTopicLines?: boolean;
}

/**
 * A run's evaluation: trecEval's result, each topic kept as numbers and text rather than an
 * object per value (the -q -m all_trec values of 1,000 topics were 100,000 objects), and the
 * run's tag (trec_eval's runid: the first line's).
 */
export interface RunEvaluation {
  /** In strcmp order of qids. */
  topics: TopicValues[];
  /** A topic's values' names and kinds. */
  template: readonly Value[];
  summary: Value[];
  runid: boolean;
  tag: string | undefined;
  /** How the run was read: streamed by topic, buffered (topics interleaved), or by the plain path. */
  route: "stream" | "buffered" | "plain";
}

/** Bytes read at a time: whole lines, about this much (readLineUnits). */
const UNIT_BYTES = 1 << 20;

/** Evaluates the run at `runPath` (or `-`) against qrels read with loadByteQrels, as trecEval would. */
export async function evaluateRunFile(
  qrels: ByteQrels,
  runPath: string,
  specs: readonly MeasureSpec[],
  options: FileEvalOptions = {},
  /** Bytes read at a time (tests make it small, so lines and topics straddle reads). */
  unitBytes = UNIT_BYTES,
): Promise<RunEvaluation> {
  const level = options.relevanceLevel ?? 1;
  const file = runPath === "-" ? "<stdin>" : runPath;
  // stdin cannot be read twice (a second pass, buffered or plain): it is kept whole.
  const stdin = runPath === "-" ? await readAll(await openInput("-")) : undefined;
  const units = (): AsyncIterable<Uint8Array> | Uint8Array[] =>
    stdin ? [hasBom(stdin) ? stdin.subarray(3) : stdin] : readLineUnits(runPath, unitBytes);
  // A Parquet run is scanned as its row groups' entries (the same topics, order and scores as
  // its lines would give); its errors, like a text run's, are the plain path's.
  const parquet = stdin ? isParquetHead(stdin) : await isParquetFile(runPath);

  const lines = options.perTopicLines === true;
  const template = emptyTemplate(specs, level); // a topic's value names and kinds: the specs' alone
  const pass = async (buffered: boolean) => {
    const judge = new ByteJudge(qrels, level, options.maxDocs, options.runFile);
    const topics: TopicValues[] = [];
    const failures: { qid: string; error: unknown }[] = [];
    const scanner = new RunScanner(qrels, file, buffered, (t) => {
      try {
        topics.push(compact(topicResult(t.qid, judge.judge(t), false, specs, level), lines));
      } catch (error) {
        // The plain path reads the whole run before judging: an error here counts only if no
        // line is bad, and then the first in its (qid) order.
        failures.push({ qid: t.qid, error });
      }
    });
    if (parquet) {
      const source = stdin ? bytesSource(file, stdin) : undefined;
      for await (const b of readRun(runPath, { trecEval: true, source })) scanner.feedEntries(b);
      scanner.end();
      return { topics, failures, tag: scanner.tag, seen: scanner.seen };
    }
    // One read ahead: the next unit is read (in libuv's pool) while this one is scanned.
    const it = toAsync(units())[Symbol.asyncIterator]();
    let next = it.next();
    let done = false;
    try {
      for (;;) {
        const r = await next;
        if (r.done) break;
        next = it.next();
        scanner.feed(Buffer.from(r.value.buffer, r.value.byteOffset, r.value.length));
      }
      done = true;
    } finally {
      // Stopped early (a pass to redo): let the read in flight end, then close the file.
      if (!done)
        await next.then(
          () => it.return?.(),
          () => undefined,
        );
    }
    scanner.end();
    return { topics, failures, tag: scanner.tag, seen: scanner.seen };
  };

  let r: Awaited<ReturnType<typeof pass>>;
  let route: RunEvaluation["route"] = "stream";
  try {
    try {
      r = await pass(false);
    } catch (e) {
      if (!(e instanceof Interleaved)) throw e;
      route = "buffered";
      r = await pass(true);
    }
  } catch (e) {
    if (!(e instanceof Declined || e instanceof InputError)) throw e;
    const { run, tag } = await loadRun(runPath, stdin ? bytesSource(file, stdin) : undefined);
    const result = trecEval(run, qrels.toMaps(), specs, options);
    return {
      topics: result.topics.map((t) => compact(t, lines)),
      template,
      summary: result.summary,
      runid: result.runid,
      tag,
      route: "plain",
    };
  }
  if (r.failures.length > 0) throw r.failures.reduce((a, b) => (strcmpOrder(b.qid, a.qid) < 0 ? b : a)).error;
  const topics = r.topics;
  if (options.allTopics)
    qrels.qids.forEach((qid, t) => {
      if (r.seen.has(qid)) return;
      const ranking = judgeRanking(MISSING_TOPIC_RANKING, qrels.topicMap(t), {
        relevanceLevel: level,
        maxDocs: options.maxDocs,
        file: options.runFile,
        qid,
      });
      topics.push(compact(topicResult(qid, ranking, true, specs, level), lines));
    });
  topics.sort((a, b) => strcmpOrder(a.qid, b.qid));
  const positive = options.allTopics ? qrels.positive : undefined;
  const summary = summaryValues(template, topics.length, positive, (i) => {
    let sum = 0;
    for (const t of topics) {
      const v = t.values[i];
      if (v === undefined) throw new RangeError(`${t.qid}: value ${i} of ${t.values.length}`);
      sum += v;
    }
    return sum;
  });
  return {
    topics,
    template,
    summary,
    runid: specs.some((m) => m.name === "runid"),
    tag: r.tag,
    route,
  };
}

/** What trec_eval prints for an evaluation (formatTrecEval's text), as UTF-8 bytes. */
export function formatRunEvaluation(ev: RunEvaluation, perTopic: boolean): Buffer {
  const parts: Uint8Array[] = perTopic ? ev.topics.map((t) => t.lines) : [];
  parts.push(Buffer.from(formatSummary(ev.summary, ev.runid, ev.tag), "utf8"));
  return Buffer.concat(parts);
}

async function* toAsync<T>(xs: AsyncIterable<T> | T[]): AsyncIterable<T> {
  yield* xs;
}

function hasBom(b: Uint8Array): boolean {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}
