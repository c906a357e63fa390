// trec_eval end to end: measures requested as `-m` names, per topic and averaged, printed in its layout.

import { strcmpOrder } from "@convkit/io";
import { formatFixed } from "@convkit/pynum";
import { type JudgedRanking, judgeRanking, type Scored, type TopicQrels } from "./judged-ranking.js";
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

/** A measure family and its parameters, as `-m P.5,10` names it. */
export interface MeasureSpec {
  readonly name: string;
  /** Cutoffs (document counts) or levels (fractions), ascending; absent: the measure's defaults. */
  readonly cutoffs?: readonly number[];
  /** The parameter text as given (`11pt_avg_.25,.5,.75` prints it). */
  readonly paramText?: string;
  /** Numbers of a measure taking a list of them (utility's four coefficients, relstring's length). */
  readonly numbers?: readonly number[];
  /** `name=value` parameters (ndcg's `1=3,2=9` gains, rbp's `p=0.95`). */
  readonly pairs?: readonly (readonly [string, number])[];
}

const RANKS = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
const TENTHS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
const DEFAULT_CUTOFFS: Record<string, readonly number[]> = {
  P: RANKS,
  recall: RANKS,
  ndcg_cut: RANKS,
  map_cut: RANKS,
  relative_P: RANKS,
  recip_rank_cut: [10, 100],
  success: [1, 5, 10],
  iprec_at_recall: TENTHS,
  "11pt_avg": TENTHS,
  Rprec_mult: [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2],
  set_F: [1],
  unj: [5, 10, 20],
};
/** Measures whose parameters are fractions (the others in DEFAULT_CUTOFFS take document counts). */
const FRACTION_PARAMS = new Set(["iprec_at_recall", "11pt_avg", "Rprec_mult", "set_F"]);
/** Measures taking a list of numbers, with their defaults and how many they need. */
const NUMBER_PARAMS: Record<string, { defaults: readonly number[]; count: number }> = {
  utility: { defaults: [1, -1, 0, 0], count: 4 },
  relstring: { defaults: [10], count: 1 },
};
/** Measures taking `name=value` parameters (gains per grade; rbp's persistence `p`). */
const PAIR_PARAMS = new Set(["dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "G", "rbp", "rbp_resid"]);

/**
 * The measures convkit computes, in trec_eval's measure table order (te_trec_measures), which is
 * the order it prints them in whatever the command line's order. recip_rank_cut is not
 * trec_eval's (pytrec_eval and ClariQ use it); it sits after recip_rank.
 */
export const MEASURES = [
  "runid",
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "gm_map",
  "Rprec",
  "bpref",
  "recip_rank",
  "recip_rank_cut",
  "iprec_at_recall",
  "P",
  "relstring",
  "recall",
  "infAP",
  "gm_bpref",
  "Rprec_mult",
  "utility",
  "11pt_avg",
  "binG",
  "G",
  "dcg",
  "ideal_dcg",
  "ndcg",
  "ndcg_rel",
  "Rndcg",
  "ndcg_cut",
  "map_cut",
  "relative_P",
  "success",
  "set_P",
  "set_relative_P",
  "set_recall",
  "set_map",
  "set_F",
  "num_nonrel_judged_ret",
  "yaap",
  "rbp",
  "rbp_resid",
  "unj",
] as const;
/** trec_eval's default set (`official`): its table from runid to P. */
const OFFICIAL = MEASURES.slice(0, MEASURES.indexOf("P") + 1).filter((m) => m !== "recip_rank_cut");
/** trec_eval's `all_trec`: its table but recip_rank_cut (not trec_eval's), dcg, ideal_dcg and yaap. */
const NOT_ALL_TREC = new Set(["recip_rank_cut", "dcg", "ideal_dcg", "yaap"]);
const ALL_TREC = MEASURES.filter((m) => !NOT_ALL_TREC.has(m));

/**
 * Parses `-m` values (`P.5,10`, `iprec_at_recall..1,.5`, `official`, `all_trec`) into trec_eval's
 * order; a measure named twice is computed once, with its cutoffs merged.
 */
export function parseMeasures(specs: readonly string[]): MeasureSpec[] {
  const merged = new Map<string, MeasureSpec>();
  for (const m of parseMeasureList(specs)) {
    const prev = merged.get(m.name);
    // Cutoffs named twice are merged; other parameters: the first given wins (trec_eval takes
    // the first -m naming the measure with parameters, wherever a bare one is).
    if (!(m.name in DEFAULT_CUTOFFS))
      merged.set(m.name, prev?.paramText !== undefined || m.paramText === undefined ? (prev ?? m) : m);
    else if (!prev || (!m.cutoffs && !prev.cutoffs)) merged.set(m.name, prev ?? m);
    else {
      const all = new Set([
        ...(prev.cutoffs ?? DEFAULT_CUTOFFS[m.name] ?? []),
        ...(m.cutoffs ?? DEFAULT_CUTOFFS[m.name] ?? []),
      ]);
      merged.set(m.name, { name: m.name, cutoffs: [...all].sort((x, y) => x - y), paramText: m.paramText });
    }
  }
  const order = (name: string) => (MEASURES as readonly string[]).indexOf(name);
  return [...merged.values()].sort((x, y) => order(x.name) - order(y.name));
}

function parseMeasureList(specs: readonly string[]): MeasureSpec[] {
  const out: MeasureSpec[] = [];
  for (const s of specs.length ? specs : ["official"]) {
    if (s === "official") out.push(...OFFICIAL.map((name) => ({ name })));
    else if (s === "all_trec") out.push(...ALL_TREC.map((name) => ({ name })));
    else {
      const dot = s.indexOf(".");
      const name = dot < 0 ? s : s.slice(0, dot);
      const params = dot < 0 ? undefined : s.slice(dot + 1);
      if (!(MEASURES as readonly string[]).includes(name))
        throw new RangeError(`unknown measure ${JSON.stringify(name)} (known: ${MEASURES.join(", ")})`);
      if (params === undefined || params === "") {
        out.push({ name });
        continue;
      }
      const numbers = NUMBER_PARAMS[name];
      if (numbers) {
        // trec_eval reads these with atof: negative coefficients are fine.
        const values = params.split(",").map(Number);
        if (values.some((v) => !Number.isFinite(v)) || values.length !== numbers.count)
          throw new RangeError(`${name} takes ${numbers.count} number${numbers.count > 1 ? "s" : ""}: ${s}`);
        out.push({ name, numbers: values, paramText: params });
        continue;
      }
      if (PAIR_PARAMS.has(name)) {
        const pairs = params.split(",").map((x) => {
          const eq = x.indexOf("=");
          const v = Number(x.slice(eq + 1));
          if (eq <= 0 || x.slice(eq + 1) === "" || !Number.isFinite(v))
            throw new RangeError(`${name} takes name=value parameters (e.g. 1=3,2=9): ${s}`);
          return [x.slice(0, eq), v] as const;
        });
        out.push({ name, pairs, paramText: params });
        continue;
      }
      if (!(name in DEFAULT_CUTOFFS)) throw new RangeError(`${name} takes no parameters: ${s}`);
      const fraction = FRACTION_PARAMS.has(name);
      const values = params.split(",").map((x) => {
        // trec_eval reads counts with atol (`23.4` is 23) and fractions with atof.
        const v = fraction ? Number(x) : Number.parseInt(x, 10);
        if (!Number.isFinite(v) || v < 0 || (!fraction && v === 0))
          throw new RangeError(
            `${name} takes ${fraction ? "non-negative numbers" : "positive integers"}: ${s}`,
          );
        return v;
      });
      if (name === "set_F" && values.length !== 1) throw new RangeError(`set_F takes one parameter: ${s}`);
      out.push({ name, cutoffs: [...new Set(values)].sort((x, y) => x - y), paramText: params });
    }
  }
  return out;
}

/** One printed value: name (`P_5`), and how it prints. */
interface Value {
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
  topics: { qid: string; values: Value[] }[];
  summary: Value[];
  /** Whether `runid` was asked for (it is in the default set): its line heads the summary. */
  runid: boolean;
}

/** trec_eval's stand-in ranking for a topic the run lacks, under -c (its `bogus_ranking`). */
const MISSING_TOPIC_RANKING: readonly Scored[] = [{ docno: "ceci_nest_pas_un_docno", score: 1 }];

/** Evaluates a run against qrels as trec_eval: topics without qrels are ignored. */
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
    const values = topicValues(
      judgeRanking(results ?? MISSING_TOPIC_RANKING, qrels.get(qid)!, {
        relevanceLevel: level,
        maxDocs: options.maxDocs,
        file: options.runFile,
        qid,
      }),
      specs,
      level,
    );
    // trec_eval's clean-up after the stand-in ranking: by exact name (a `utility_2,-1,0,0` or
    // `relstring_20` keeps its stand-in value), unj_* by prefix.
    if (!results)
      for (const v of values) {
        if (
          v.name === "num_ret" ||
          v.name === "utility" ||
          v.name === "rbp_resid" ||
          v.name.startsWith("unj")
        )
          v.value = 0;
        else if (v.name === "relstring") v.text = "";
      }
    return { qid, values };
  });
  const numQ = topics.length;
  const template = topics[0]?.values ?? topicValues(judgeRanking([], new Map(), {}), specs, level);
  const summary = template.flatMap((v, i) => {
    if (v.text !== undefined) return []; // relstring: per topic only
    let sum = 0;
    for (const t of topics) sum += t.values[i]!.value;
    if (v.name === "num_q") return { ...v, value: numQ };
    // trec_eval's summary num_rel under -c counts every judgment with a grade > 0, whatever -l says.
    if (v.name === "num_rel" && options.allTopics) {
      let n = 0;
      for (const q of qrels.values()) for (const g of q.values()) if (g > 0) n++;
      return { ...v, value: n };
    }
    if (v.count) return { ...v, value: sum };
    // gm_map: the exp of the mean of per-topic logs (a topic scored on -c's stand-in ranking counts log(MIN_GEO_MEAN)).
    if (v.geometric) return { ...v, value: numQ > 0 ? Math.exp(sum / numQ) : 0 };
    return { ...v, value: numQ > 0 ? sum / numQ : 0 };
  });
  return { topics, summary, runid: specs.some((m) => m.name === "runid") };
}

/** One output line in trec_eval's layout (`%-22s\t%s\t%6.4f`, counts as integers). */
export function formatTrecLine(name: string, qid: string, value: number, count: boolean): string {
  const v = count ? String(value) : formatFixed(value, 4).padStart(6, " ");
  return `${name.padEnd(22, " ")}\t${qid}\t${v}\n`;
}

/** The text trec_eval prints: per-topic blocks with `-q`, then the summary (`runid` first when asked for). */
export function formatTrecEval(
  result: TrecEvalResult,
  options: { perTopic?: boolean; runid?: string } = {},
): string {
  let s = "";
  if (options.perTopic)
    for (const t of result.topics)
      for (const v of t.values)
        if (v.text !== undefined) s += `${v.name.padEnd(22, " ")}\t${t.qid}\t'${v.text}'\n`;
        else if (v.name !== "num_q" && !v.geometric) s += formatTrecLine(v.name, t.qid, v.value, v.count);
  if (result.runid) s += `${"runid".padEnd(22, " ")}\tall\t${options.runid ?? ""}\n`;
  for (const v of result.summary) s += formatTrecLine(v.name, "all", v.value, v.count);
  return s;
}
