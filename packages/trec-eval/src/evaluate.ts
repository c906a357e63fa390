// trec_eval end to end: measures requested as `-m` names, per topic and averaged, printed in its layout.

import { formatFixed } from "@convkit/pycompat";
import { type JudgedRanking, judgeRanking, type Scored, type TopicQrels } from "./judged-ranking.js";
import { DEFAULT_CUTOFFS, type MeasureSpec, NUMBER_PARAMS } from "./measure-specs.js";
import {
  averagePrecision,
  averagePrecisionAtCutoffs,
  binaryGain,
  bpref,
  elevenPointAverage,
  gainTable,
  inferredAveragePrecision,
  interpolatedPrecision,
  judgedNonrelevantRetrieved,
  logAveragePrecision,
  logBpref,
  ndcgAt,
  ndcgAtRelevant,
  ndcgAtRLevels,
  ndcgFull,
  normalizedGain,
  precisionAt,
  precisionAtRMultiples,
  rankBiasedPrecision,
  rankBiasedResidual,
  recallAt,
  reciprocalRank,
  relativePrecisionAt,
  relevanceString,
  rPrecision,
  successAt,
  unjudgedAt,
  yaap,
} from "./measures.js";
import { strcmpOrder } from "./order.js";

export { MEASURES, type MeasureSpec, parseMeasureOptions, parseMeasures } from "./measure-specs.js";

/** One printed value: name (`P_5`), and how it prints. */
export interface Value {
  name: string;
  value: number;
  /** An integer count (printed as one); else a float, `%6.4f`. */
  count: boolean;
  /** Averaged as trec_eval's gm measures: exp of the mean of per-topic logs; not printed per topic. */
  geometric?: boolean;
  /** A per-topic string (relstring), printed quoted and never in the summary. */
  text?: string;
}

/** `%3.2f` of a fraction parameter, as trec_eval names iprec_at_recall and Rprec_mult values. */
const fraction2 = (x: number) => formatFixed(x, 2);

function topicValues(r: JudgedRanking, specs: readonly MeasureSpec[], level: number): Value[] {
  const vals: Value[] = [];
  const float = (name: string, value: number) => {
    vals.push({ name, value, count: false });
  };
  for (const m of specs) {
    const cut = m.cutoffs ?? DEFAULT_CUTOFFS[m.name] ?? [];
    // A parameterized single-valued measure prints its parameters as given (`11pt_avg_.25,.5`).
    const named = (base: string) => (m.paramText !== undefined ? `${base}_${m.paramText}` : base);
    const pairs = m.pairs ?? [];
    switch (m.name) {
      case "runid":
        break; // printed from the run's tag, in the summary only
      case "num_q":
        vals.push({ name: "num_q", value: 1, count: true });
        break;
      case "num_ret":
        vals.push({ name: "num_ret", value: r.grades.length, count: true });
        break;
      case "num_rel":
        vals.push({ name: "num_rel", value: r.numRel, count: true });
        break;
      case "num_rel_ret":
        vals.push({ name: "num_rel_ret", value: r.numRelRet, count: true });
        break;
      case "map":
        float("map", averagePrecision(r, level));
        break;
      case "gm_map":
        vals.push({ name: "gm_map", value: logAveragePrecision(r, level), count: false, geometric: true });
        break;
      case "Rprec":
        float("Rprec", rPrecision(r, level));
        break;
      case "bpref":
        float("bpref", bpref(r, level));
        break;
      case "recip_rank":
        float("recip_rank", reciprocalRank(r, level));
        break;
      case "recip_rank_cut":
        for (const k of cut) float(`recip_rank_cut_${k}`, reciprocalRank(r, level, k));
        break;
      case "iprec_at_recall":
        interpolatedPrecision(r, cut, level).forEach((v, i) => {
          float(`iprec_at_recall_${fraction2(cut[i]!)}`, v);
        });
        break;
      case "P":
        for (const k of cut) float(`P_${k}`, precisionAt(r, k, level));
        break;
      case "recall":
        for (const k of cut) float(`recall_${k}`, recallAt(r, k, level));
        break;
      case "Rprec_mult":
        precisionAtRMultiples(r, cut, level).forEach((v, i) => {
          float(`Rprec_mult_${fraction2(cut[i]!)}`, v);
        });
        break;
      case "11pt_avg":
        float(named("11pt_avg"), elevenPointAverage(r, cut, level));
        break;
      case "ndcg_cut":
        for (const k of cut) float(`ndcg_cut_${k}`, ndcgAt(r, k));
        break;
      case "map_cut":
        averagePrecisionAtCutoffs(r, cut, level).forEach((v, i) => {
          float(`map_cut_${cut[i]!}`, v);
        });
        break;
      case "relative_P":
        relativePrecisionAt(r, cut, level).forEach((v, i) => {
          float(`relative_P_${cut[i]!}`, v);
        });
        break;
      case "set_relative_P":
        float(
          "set_relative_P",
          r.grades.length && r.numRel ? r.numRelRet / Math.min(r.grades.length, r.numRel) : 0,
        );
        break;
      case "infAP":
        float("infAP", inferredAveragePrecision(r, level));
        break;
      case "gm_bpref":
        vals.push({ name: "gm_bpref", value: logBpref(r, level), count: false, geometric: true });
        break;
      case "num_nonrel_judged_ret":
        vals.push({
          name: "num_nonrel_judged_ret",
          value: judgedNonrelevantRetrieved(r, level),
          count: true,
        });
        break;
      case "success":
        for (const k of cut) float(`success_${k}`, successAt(r, k, level));
        break;
      case "set_P":
        float("set_P", r.grades.length ? r.numRelRet / r.grades.length : 0);
        break;
      case "set_recall":
        float("set_recall", r.numRel ? r.numRelRet / r.numRel : 0);
        break;
      case "set_map":
        float(
          "set_map",
          r.grades.length && r.numRel ? (r.numRelRet * r.numRelRet) / (r.grades.length * r.numRel) : 0,
        );
        break;
      case "relstring":
        vals.push({
          name: named("relstring"),
          value: 0,
          count: false,
          text: relevanceString(r, (m.numbers ?? NUMBER_PARAMS.relstring!.defaults)[0]!),
        });
        break;
      case "utility": {
        const [a, b, c, d] = m.numbers ?? NUMBER_PARAMS.utility!.defaults;
        const numRet = r.grades.length;
        // The collection size (trec_eval's -N) is 0 here, as trec_eval's default.
        float(
          named("utility"),
          a! * r.numRelRet +
            b! * (numRet - r.numRelRet) +
            c! * (r.numRel - r.numRelRet) +
            d! * (0 + r.numRelRet - numRet - r.numRel),
        );
        break;
      }
      case "binG":
        float("binG", binaryGain(r, level));
        break;
      case "G":
        float(named("G"), normalizedGain(r, gainTable(r, pairs)));
        break;
      case "dcg":
        float(named("dcg"), ndcgFull(r, gainTable(r, pairs)).dcg);
        break;
      case "ideal_dcg":
        float(named("ideal_dcg"), ndcgFull(r, gainTable(r, pairs)).idealDcg);
        break;
      case "ndcg":
        float(named("ndcg"), ndcgFull(r, gainTable(r, pairs)).ndcg);
        break;
      case "ndcg_rel":
        float(named("ndcg_rel"), ndcgAtRelevant(r, gainTable(r, pairs)));
        break;
      case "Rndcg":
        float(named("Rndcg"), ndcgAtRLevels(r, gainTable(r, pairs)));
        break;
      case "yaap":
        float("yaap", yaap(r, level));
        break;
      case "rbp":
        float(named("rbp"), rankBiasedPrecision(r, pairs));
        break;
      case "rbp_resid":
        float(named("rbp_resid"), rankBiasedResidual(r, pairs));
        break;
      case "unj":
        unjudgedAt(r, cut).forEach((v, i) => {
          float(`unj_${cut[i]!}`, v);
        });
        break;
      case "set_F": {
        const x = cut[0]!;
        let f = 0;
        if (r.numRelRet) {
          const P = r.numRelRet / r.grades.length;
          const R = r.numRelRet / r.numRel;
          f = ((x + 1) * P * R) / (x * P + R);
        }
        float(named("set_F"), f);
        break;
      }
    }
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
  const values = topicValues(ranking, specs, level);
  // trec_eval's clean-up after the stand-in ranking: by exact name (a `utility_2,-1,0,0` or
  // `relstring_20` keeps its stand-in value), unj_* by prefix.
  if (missing)
    for (const v of values) {
      if (v.name === "num_ret" || v.name === "utility" || v.name === "rbp_resid" || v.name.startsWith("unj"))
        v.value = 0;
      else if (v.name === "relstring") v.text = "";
    }
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
    for (const t of topics) sum += t.values[i]!.value;
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
  const qids = (options.allTopics ? [...qrels.keys()] : [...run.keys()].filter((q) => qrels.has(q))).sort(
    strcmpOrder,
  );
  const topics = qids.map((qid) => {
    const results = run.get(qid);
    const ranking = judgeRanking(results ?? MISSING_TOPIC_RANKING, qrels.get(qid)!, {
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
