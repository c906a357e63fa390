// trec_eval end to end: measures requested as `-m` names, per topic and averaged, printed in its layout.

import { formatFixed } from "@convkit/pycompat";
import { type JudgedRanking, judgeRanking, type Scored, type TopicQrels } from "./judged-ranking.js";
import { cutoffsOf, type MeasureSpec, measureNamed, type Value } from "./measure-table.js";
import { strcmpOrder } from "./order.js";

export { MEASURES, parseMeasureOptions, parseMeasures } from "./measure-specs.js";
export type { MeasureSpec, Value } from "./measure-table.js";

/**
 * A topic's values, each spec's by its entry in the measure table. `missing`: the ranking is -c's
 * stand-in for a topic the run lacks, after which trec_eval resets some values (each measure's
 * `missing`).
 */
function topicValues(
  r: JudgedRanking,
  specs: readonly MeasureSpec[],
  level: number,
  missing = false,
): Value[] {
  const vals: Value[] = [];
  for (const spec of specs) {
    const measure = measureNamed(spec.name);
    const from = vals.length;
    const { params } = measure;
    const numbers = spec.numbers ?? (params.kind === "numbers" ? params.defaults : []);
    measure.compute({ r, level, spec, cut: cutoffsOf(measure, spec), numbers }, vals);
    const reset = measure.missing;
    if (missing && reset) for (const v of vals.slice(from)) reset(v);
  }
  return vals;
}

/** Options as trec_eval's flags: `-l` relevance level, `-M` max docs per topic, `-c` complete average. */
export interface TrecEvalOptions {
  relevanceLevel?: number;
  maxDocs?: number;
  /** -c: average over every qrels topic, a topic without results counting 0. */
  allTopics?: boolean;
  runFile?: string;
}

/** Per-topic values (qids in strcmp order) and the averages over the evaluated topics. */
export interface TrecEvalResult {
  topics: TopicResult[];
  summary: Value[];
  /** Whether `runid` was asked for (it is in the default set): its line heads the summary. */
  runid: boolean;
}

/** trec_eval's stand-in ranking for a topic the run lacks, under -c (its `bogus_ranking`). */
export const MISSING_TOPIC_RANKING: readonly Scored[] = [{ docno: "ceci_nest_pas_un_docno", score: 1 }];

/** One evaluated topic: its values in the order of the specs. */
export interface TopicResult {
  qid: string;
  values: Value[];
}

/**
 * One topic's values. `missing`: the run lacks the topic and `ranking` is -c's stand-in (judged
 * on {@link MISSING_TOPIC_RANKING}), after which trec_eval resets some values.
 */
export function topicResult(
  qid: string,
  ranking: JudgedRanking,
  missing: boolean,
  specs: readonly MeasureSpec[],
  level: number,
): TopicResult {
  const values = topicValues(ranking, specs, level, missing);
  return { qid, values };
}

/**
 * The summary over topics already in strcmp order of qids (the order trec_eval sums in, which
 * the floating-point sums depend on). `positiveJudgments`: under -c, the qrels' judgments with a
 * grade > 0 (trec_eval's summary num_rel then, whatever -l says); undefined otherwise.
 */
function summarize(
  topics: TopicResult[],
  specs: readonly MeasureSpec[],
  level: number,
  positiveJudgments: number | undefined,
): TrecEvalResult {
  const template = topics[0]?.values ?? emptyTemplate(specs, level);
  const summary = summaryValues(template, topics.length, positiveJudgments, (i) => {
    let sum = 0;
    for (const t of topics) {
      const v = t.values[i];
      if (v === undefined) throw new RangeError(`${t.qid}: value ${i} of ${t.values.length}`);
      sum += v.value;
    }
    return sum;
  });
  return { topics, summary, runid: specs.some((m) => m.name === "runid") };
}

/** The values a topic would have, as names and kinds when there is no topic (an empty ranking's). */
export function emptyTemplate(specs: readonly MeasureSpec[], level: number): Value[] {
  return topicValues(judgeRanking([], new Map(), {}), specs, level);
}

/**
 * The summary from the values' names and kinds (`template`, a topic's values) and `sumOf(i)`,
 * value i summed over the topics in strcmp order of qids.
 */
export function summaryValues(
  template: readonly Value[],
  numQ: number,
  positiveJudgments: number | undefined,
  sumOf: (i: number) => number,
): Value[] {
  return template.flatMap((v, i) => {
    if (v.text !== undefined) return []; // relstring: per topic only
    const sum = sumOf(i);
    if (v.name === "num_q") return { ...v, value: numQ };
    if (v.name === "num_rel" && positiveJudgments !== undefined) return { ...v, value: positiveJudgments };
    if (v.count) return { ...v, value: sum };
    // gm_map: the exp of the mean of per-topic logs (a topic scored on -c's stand-in ranking counts log(MIN_GEO_MEAN)).
    if (v.geometric) return { ...v, value: numQ > 0 ? Math.exp(sum / numQ) : 0 };
    return { ...v, value: numQ > 0 ? sum / numQ : 0 };
  });
}

/**
 * Evaluates a run against qrels as trec_eval: topics without qrels are ignored. The plain
 * reference of the byte path (evaluate-files.ts), which must give the same result.
 */
export function trecEval(
  run: ReadonlyMap<string, readonly Scored[]>,
  qrels: ReadonlyMap<string, TopicQrels>,
  specs: readonly MeasureSpec[],
  options: TrecEvalOptions = {},
): TrecEvalResult {
  const level = options.relevanceLevel ?? 1;
  // -c: every qrels topic; one the run lacks is scored, as trec_eval does, on a ranking of one
  // unjudged document, its num_ret then set back to 0.
  const judged = [...qrels]
    .filter(([qid]) => options.allTopics || run.has(qid))
    .sort(([a], [b]) => strcmpOrder(a, b));
  const topics = judged.map(([qid, judgments]) => {
    const results = run.get(qid);
    const ranking = judgeRanking(results ?? MISSING_TOPIC_RANKING, judgments, {
      relevanceLevel: level,
      maxDocs: options.maxDocs,
      file: options.runFile,
      qid,
    });
    return topicResult(qid, ranking, !results, specs, level);
  });
  // trec_eval's summary num_rel under -c counts every judgment with a grade > 0, whatever -l says.
  let positive: number | undefined;
  if (options.allTopics) {
    positive = 0;
    for (const q of qrels.values()) for (const g of q.values()) if (g > 0) positive++;
  }
  return summarize(topics, specs, level, positive);
}

/** Names padded as printed (the same few hundred names on every topic's lines). */
const padded = new Map<string, string>();

/** One output line in trec_eval's layout (`%-22s\t%s\t%6.4f`, counts as integers). */
export function formatTrecLine(name: string, qid: string, value: number, count: boolean): string {
  const v = count ? String(value) : formatFixed(value, 4).padStart(6, " ");
  let p = padded.get(name);
  if (p === undefined) {
    p = `${name.padEnd(22, " ")}\t`;
    if (padded.size < 10_000) padded.set(name, p);
  }
  return `${p}${qid}\t${v}\n`;
}

/** The text trec_eval prints: per-topic blocks with `-q`, then the summary (`runid` first when asked for). */
export function formatTrecEval(
  result: TrecEvalResult,
  options: { perTopic?: boolean; runid?: string } = {},
): string {
  let s = "";
  if (options.perTopic) for (const t of result.topics) s += formatTopicLines(t);
  return s + formatSummary(result.summary, result.runid, options.runid);
}

/** A topic's lines under -q. */
export function formatTopicLines(t: TopicResult): string {
  let s = "";
  for (const v of t.values)
    if (v.text !== undefined) s += `${v.name.padEnd(22, " ")}\t${t.qid}\t'${v.text}'\n`;
    else if (v.name !== "num_q" && !v.geometric) s += formatTrecLine(v.name, t.qid, v.value, v.count);
  return s;
}

/** The summary lines (`runid` first when asked for). */
export function formatSummary(summary: readonly Value[], runid: boolean, tag: string | undefined): string {
  let s = runid ? `${"runid".padEnd(22, " ")}\tall\t${tag ?? ""}\n` : "";
  for (const v of summary) s += formatTrecLine(v.name, "all", v.value, v.count);
  return s;
}
