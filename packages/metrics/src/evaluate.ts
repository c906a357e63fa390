// trec_eval end to end: measures requested as `-m` names, per topic and averaged, printed in its layout.
import { formatFixed } from "@convkit/pynum";
import {
  byteCompare,
  type JudgedRanking,
  judgeRanking,
  type Scored,
  type TopicQrels,
} from "./judged-ranking.js";
import { averagePrecision, ndcgAt, precisionAt, recallAt, reciprocalRank, rPrecision } from "./measures.js";

/** A measure family and its cutoffs, as `-m P.5,10` names it. */
export interface MeasureSpec {
  readonly name: string;
  readonly cutoffs?: readonly number[];
}

const DEFAULT_CUTOFFS: Record<string, number[]> = {
  P: [5, 10, 15, 20, 30, 100, 200, 500, 1000],
  recall: [5, 10, 15, 20, 30, 100, 200, 500, 1000],
  ndcg_cut: [5, 10, 15, 20, 30, 100, 200, 500, 1000],
  recip_rank_cut: [10, 100],
};

/** The measures convkit computes; `official` is trec_eval's default set as far as these go. */
export const MEASURES = [
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "Rprec",
  "recip_rank",
  "recip_rank_cut",
  "P",
  "recall",
  "ndcg_cut",
] as const;
const OFFICIAL = ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "recip_rank", "P"];

/** Parses `-m` values (`P.5,10`, `ndcg_cut.10`, `official`, `all_trec`); a measure named twice is computed once, with its cutoffs merged. */
export function parseMeasures(specs: readonly string[]): MeasureSpec[] {
  const merged = new Map<string, Set<number> | undefined>();
  for (const m of parseMeasureList(specs)) {
    const prev = merged.get(m.name);
    if (!merged.has(m.name)) merged.set(m.name, m.cutoffs ? new Set(m.cutoffs) : undefined);
    else if (m.cutoffs || prev) {
      const all = new Set([
        ...(prev ?? DEFAULT_CUTOFFS[m.name] ?? []),
        ...(m.cutoffs ?? DEFAULT_CUTOFFS[m.name] ?? []),
      ]);
      merged.set(m.name, all);
    }
  }
  return [...merged].map(([name, cut]) =>
    cut ? { name, cutoffs: [...cut].sort((a, b) => a - b) } : { name },
  );
}

function parseMeasureList(specs: readonly string[]): MeasureSpec[] {
  const out: MeasureSpec[] = [];
  for (const s of specs.length ? specs : ["official"]) {
    if (s === "official") out.push(...OFFICIAL.map((name) => ({ name })));
    else if (s === "all_trec") out.push(...MEASURES.map((name) => ({ name })));
    else {
      const [name, params] = s.split(".", 2) as [string, string | undefined];
      if (!(MEASURES as readonly string[]).includes(name))
        throw new RangeError(`unknown measure ${JSON.stringify(name)} (known: ${MEASURES.join(", ")})`);
      const cutoffs = params?.split(",").map((x) => {
        const k = Number(x);
        if (!Number.isInteger(k) || k <= 0) throw new RangeError(`cutoffs must be positive integers: ${s}`);
        return k;
      });
      out.push(cutoffs ? { name, cutoffs } : { name });
    }
  }
  return out;
}

/** One printed value: name (`P_5`), and whether it is an integer count. */
interface Value {
  name: string;
  value: number;
  count: boolean;
}

function topicValues(r: JudgedRanking, specs: readonly MeasureSpec[], level: number): Value[] {
  const vals: Value[] = [];
  for (const m of specs) {
    const cut = m.cutoffs ?? DEFAULT_CUTOFFS[m.name] ?? [];
    switch (m.name) {
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
        vals.push({ name: "map", value: averagePrecision(r, level), count: false });
        break;
      case "Rprec":
        vals.push({ name: "Rprec", value: rPrecision(r, level), count: false });
        break;
      case "recip_rank":
        vals.push({ name: "recip_rank", value: reciprocalRank(r, level), count: false });
        break;
      case "recip_rank_cut":
        for (const k of cut)
          vals.push({ name: `recip_rank_cut_${k}`, value: reciprocalRank(r, level, k), count: false });
        break;
      case "P":
        for (const k of cut) vals.push({ name: `P_${k}`, value: precisionAt(r, k, level), count: false });
        break;
      case "recall":
        for (const k of cut) vals.push({ name: `recall_${k}`, value: recallAt(r, k, level), count: false });
        break;
      case "ndcg_cut":
        for (const k of cut) vals.push({ name: `ndcg_cut_${k}`, value: ndcgAt(r, k), count: false });
        break;
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
}

/** Evaluates a run against qrels as trec_eval: topics without qrels are ignored. */
export function trecEval(
  run: ReadonlyMap<string, readonly Scored[]>,
  qrels: ReadonlyMap<string, TopicQrels>,
  specs: readonly MeasureSpec[],
  options: TrecEvalOptions = {},
): TrecEvalResult {
  const level = options.relevanceLevel ?? 1;
  const qids = [...run.keys()].filter((q) => qrels.has(q)).sort(byteCompare);
  const topics = qids.map((qid) => ({
    qid,
    values: topicValues(
      judgeRanking(run.get(qid)!, qrels.get(qid)!, {
        relevanceLevel: level,
        maxDocs: options.maxDocs,
        file: options.runFile,
        qid,
      }),
      specs,
      level,
    ),
  }));
  const numQ = options.allTopics ? qrels.size : topics.length;
  const template = topics[0]?.values ?? topicValues(judgeRanking([], new Map(), {}), specs, level);
  const summary = template.map((v, i) => {
    let sum = 0;
    for (const t of topics) sum += t.values[i]!.value;
    if (v.name === "num_q") return { ...v, value: numQ };
    return { ...v, value: v.count ? sum : numQ > 0 ? sum / numQ : 0 };
  });
  return { topics, summary };
}

/** One output line in trec_eval's layout (`%-22s\t%s\t%6.4f`, counts as integers). */
export function formatTrecLine(name: string, qid: string, value: number, count: boolean): string {
  const v = count ? String(value) : formatFixed(value, 4).padStart(6, " ");
  return `${name.padEnd(22, " ")}\t${qid}\t${v}\n`;
}

/** The text trec_eval prints: per-topic blocks with `-q`, then the summary (`runid` first when known). */
export function formatTrecEval(
  result: TrecEvalResult,
  options: { perTopic?: boolean; runid?: string } = {},
): string {
  let s = "";
  if (options.perTopic)
    for (const t of result.topics)
      for (const v of t.values) if (v.name !== "num_q") s += formatTrecLine(v.name, t.qid, v.value, v.count);
  if (options.runid !== undefined) s += `${"runid".padEnd(22, " ")}\tall\t${options.runid}\n`;
  for (const v of result.summary) s += formatTrecLine(v.name, "all", v.value, v.count);
  return s;
}
