// trec_eval's measures as one table: each entry declares a measure's name, its parameters and
// default cut-offs, the sets it belongs to and how it computes a topic's values. Adding a measure
// is adding an entry here (its maths in measures.ts); parsing (measure-specs.ts) and evaluation
// (evaluate.ts) read the table. The table's order is trec_eval's measure table order
// (te_trec_measures), the order it prints in whatever the command line's order.
import { formatFixed } from "@convkit/pycompat";
import type { JudgedRanking } from "./judged-ranking.js";
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

/** What a measure takes after its name's dot. */
type MeasureParams =
  | { readonly kind: "none" }
  /** Cut-offs: document counts (atol), or fractions (atof); `single`: exactly one. */
  | {
      readonly kind: "cutoffs";
      readonly defaults: readonly number[];
      readonly fraction: boolean;
      readonly single?: true;
    }
  /** A fixed number of numbers (atof), all or none given. */
  | { readonly kind: "numbers"; readonly defaults: readonly number[] }
  /** `name=value` pairs (gains per grade; rbp's persistence `p`). */
  | { readonly kind: "pairs" };

/** One topic's input to a measure: its judged ranking, -l, the spec as asked for and its cut-offs (given or default). */
interface MeasureInput {
  readonly r: JudgedRanking;
  readonly level: number;
  readonly spec: MeasureSpec;
  readonly cut: readonly number[];
  /** The spec's numbers, or the measure's defaults. */
  readonly numbers: readonly number[];
}

export interface Measure {
  readonly name: string;
  readonly params: MeasureParams;
  /** In trec_eval's default set (`official`). */
  readonly official?: true;
  /** Left out of `all_trec` (not trec_eval's, or not in its all_trec). */
  readonly notAllTrec?: true;
  /** Appends the topic's values to `out`. */
  readonly compute: (t: MeasureInput, out: Value[]) => void;
  /**
   * trec_eval's clean-up of this measure's value after -c's stand-in ranking (a topic the run
   * lacks). It goes by exact name: a `utility_2,-1,0,0` or `relstring_20` keeps its stand-in value.
   */
  readonly missing?: (v: Value) => void;
}

const NONE: MeasureParams = { kind: "none" };
const PAIRS: MeasureParams = { kind: "pairs" };
const RANKS: MeasureParams = {
  kind: "cutoffs",
  defaults: [5, 10, 15, 20, 30, 100, 200, 500, 1000],
  fraction: false,
};
const TENTHS: MeasureParams = {
  kind: "cutoffs",
  defaults: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
  fraction: true,
};

const float = (out: Value[], name: string, value: number) => {
  out.push({ name, value, count: false });
};
const count = (out: Value[], name: string, value: number) => {
  out.push({ name, value, count: true });
};
/** A parameterized single-valued measure prints its parameters as given (`11pt_avg_.25,.5`). */
const named = (t: MeasureInput, base: string) =>
  t.spec.paramText !== undefined ? `${base}_${t.spec.paramText}` : base;
/** `%3.2f` of a fraction parameter, as trec_eval names iprec_at_recall and Rprec_mult values. */
const fraction2 = (x: number) => formatFixed(x, 2);
/** One value per cut-off, `prefix_<cut-off>`: `values[i]` is the value at `cut[i]`. */
function perCutoff(
  out: Value[],
  t: MeasureInput,
  prefix: string,
  values: readonly number[],
  label: (c: number) => string = String,
): void {
  const { cut } = t;
  values.forEach((v, i) => {
    const c = cut[i];
    if (c === undefined) throw new Error(`${prefix}: ${values.length} values for ${cut.length} cut-offs`);
    float(out, `${prefix}_${label(c)}`, v);
  });
}
/** A measure's nth number (utility's coefficients, relstring's length); the parser checks how many. */
function numberAt(t: MeasureInput, i: number): number {
  const v = t.numbers[i];
  if (v === undefined) throw new Error(`${t.spec.name} without its parameter ${i + 1}`);
  return v;
}
/** A measure computed once per cut-off, `prefix_<k>`. */
const eachCutoff =
  (prefix: string, f: (t: MeasureInput, k: number) => number) => (t: MeasureInput, out: Value[]) => {
    for (const k of t.cut) float(out, `${prefix}_${k}`, f(t, k));
  };
const zero = (v: Value) => {
  v.value = 0;
};
const zeroIfNamed = (name: string) => (v: Value) => {
  if (v.name === name) v.value = 0;
};
/** A gain-based measure: its value from the gain table its pairs give (printed with its parameters). */
const gainBased = (
  name: string,
  f: (r: JudgedRanking, gains: ReturnType<typeof gainTable>) => number,
): Measure => ({
  name,
  params: PAIRS,
  compute: (t, out) => float(out, named(t, name), f(t.r, gainTable(t.r, t.spec.pairs ?? []))),
});

/**
 * The measures convkit computes, in trec_eval's measure table order. recip_rank_cut is not
 * trec_eval's (pytrec_eval and ClariQ use it); it sits after recip_rank.
 */
export const MEASURE_TABLE: readonly Measure[] = [
  // printed from the run's tag, in the summary only
  { name: "runid", params: NONE, official: true, compute: () => {} },
  { name: "num_q", params: NONE, official: true, compute: (_, out) => count(out, "num_q", 1) },
  {
    name: "num_ret",
    params: NONE,
    official: true,
    compute: (t, out) => count(out, "num_ret", t.r.grades.length),
    missing: zero,
  },
  { name: "num_rel", params: NONE, official: true, compute: (t, out) => count(out, "num_rel", t.r.numRel) },
  {
    name: "num_rel_ret",
    params: NONE,
    official: true,
    compute: (t, out) => count(out, "num_rel_ret", t.r.numRelRet),
  },
  {
    name: "map",
    params: NONE,
    official: true,
    compute: (t, out) => float(out, "map", averagePrecision(t.r, t.level)),
  },
  {
    name: "gm_map",
    params: NONE,
    official: true,
    compute: (t, out) => {
      out.push({ name: "gm_map", value: logAveragePrecision(t.r, t.level), count: false, geometric: true });
    },
  },
  {
    name: "Rprec",
    params: NONE,
    official: true,
    compute: (t, out) => float(out, "Rprec", rPrecision(t.r, t.level)),
  },
  {
    name: "bpref",
    params: NONE,
    official: true,
    compute: (t, out) => float(out, "bpref", bpref(t.r, t.level)),
  },
  {
    name: "recip_rank",
    params: NONE,
    official: true,
    compute: (t, out) => float(out, "recip_rank", reciprocalRank(t.r, t.level)),
  },
  {
    name: "recip_rank_cut",
    params: { kind: "cutoffs", defaults: [10, 100], fraction: false },
    notAllTrec: true,
    compute: eachCutoff("recip_rank_cut", (t, k) => reciprocalRank(t.r, t.level, k)),
  },
  {
    name: "iprec_at_recall",
    params: TENTHS,
    official: true,
    compute: (t, out) =>
      perCutoff(out, t, "iprec_at_recall", interpolatedPrecision(t.r, t.cut, t.level), fraction2),
  },
  {
    name: "P",
    params: RANKS,
    official: true,
    compute: eachCutoff("P", (t, k) => precisionAt(t.r, k, t.level)),
  },
  {
    name: "relstring",
    params: { kind: "numbers", defaults: [10] },
    compute: (t, out) => {
      const text = relevanceString(t.r, numberAt(t, 0));
      out.push({ name: named(t, "relstring"), value: 0, count: false, text });
    },
    missing: (v) => {
      if (v.name === "relstring") v.text = "";
    },
  },
  { name: "recall", params: RANKS, compute: eachCutoff("recall", (t, k) => recallAt(t.r, k, t.level)) },
  {
    name: "infAP",
    params: NONE,
    compute: (t, out) => float(out, "infAP", inferredAveragePrecision(t.r, t.level)),
  },
  {
    name: "gm_bpref",
    params: NONE,
    compute: (t, out) => {
      out.push({ name: "gm_bpref", value: logBpref(t.r, t.level), count: false, geometric: true });
    },
  },
  {
    name: "Rprec_mult",
    params: { kind: "cutoffs", defaults: [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2], fraction: true },
    compute: (t, out) =>
      perCutoff(out, t, "Rprec_mult", precisionAtRMultiples(t.r, t.cut, t.level), fraction2),
  },
  {
    name: "utility",
    params: { kind: "numbers", defaults: [1, -1, 0, 0] },
    compute: (t, out) => {
      const { r } = t;
      const numRet = r.grades.length;
      // The collection size (trec_eval's -N) is 0 here, as trec_eval's default.
      float(
        out,
        named(t, "utility"),
        numberAt(t, 0) * r.numRelRet +
          numberAt(t, 1) * (numRet - r.numRelRet) +
          numberAt(t, 2) * (r.numRel - r.numRelRet) +
          numberAt(t, 3) * (0 + r.numRelRet - numRet - r.numRel),
      );
    },
    missing: zeroIfNamed("utility"),
  },
  {
    name: "11pt_avg",
    params: TENTHS,
    compute: (t, out) => float(out, named(t, "11pt_avg"), elevenPointAverage(t.r, t.cut, t.level)),
  },
  { name: "binG", params: NONE, compute: (t, out) => float(out, "binG", binaryGain(t.r, t.level)) },
  gainBased("G", normalizedGain),
  { ...gainBased("dcg", (r, g) => ndcgFull(r, g).dcg), notAllTrec: true },
  { ...gainBased("ideal_dcg", (r, g) => ndcgFull(r, g).idealDcg), notAllTrec: true },
  gainBased("ndcg", (r, g) => ndcgFull(r, g).ndcg),
  gainBased("ndcg_rel", ndcgAtRelevant),
  gainBased("Rndcg", ndcgAtRLevels),
  { name: "ndcg_cut", params: RANKS, compute: eachCutoff("ndcg_cut", (t, k) => ndcgAt(t.r, k)) },
  {
    name: "map_cut",
    params: RANKS,
    compute: (t, out) => perCutoff(out, t, "map_cut", averagePrecisionAtCutoffs(t.r, t.cut, t.level)),
  },
  {
    name: "relative_P",
    params: RANKS,
    compute: (t, out) => perCutoff(out, t, "relative_P", relativePrecisionAt(t.r, t.cut, t.level)),
  },
  {
    name: "success",
    params: { kind: "cutoffs", defaults: [1, 5, 10], fraction: false },
    compute: eachCutoff("success", (t, k) => successAt(t.r, k, t.level)),
  },
  {
    name: "set_P",
    params: NONE,
    compute: ({ r }, out) => float(out, "set_P", r.grades.length ? r.numRelRet / r.grades.length : 0),
  },
  {
    name: "set_relative_P",
    params: NONE,
    compute: ({ r }, out) =>
      float(
        out,
        "set_relative_P",
        r.grades.length && r.numRel ? r.numRelRet / Math.min(r.grades.length, r.numRel) : 0,
      ),
  },
  {
    name: "set_recall",
    params: NONE,
    compute: ({ r }, out) => float(out, "set_recall", r.numRel ? r.numRelRet / r.numRel : 0),
  },
  {
    name: "set_map",
    params: NONE,
    compute: ({ r }, out) =>
      float(
        out,
        "set_map",
        r.grades.length && r.numRel ? (r.numRelRet * r.numRelRet) / (r.grades.length * r.numRel) : 0,
      ),
  },
  {
    name: "set_F",
    params: { kind: "cutoffs", defaults: [1], fraction: true, single: true },
    compute: (t, out) => {
      const { r } = t;
      const x = t.cut[0];
      if (x === undefined) throw new Error("set_F without its parameter");
      let f = 0;
      if (r.numRelRet) {
        const P = r.numRelRet / r.grades.length;
        const R = r.numRelRet / r.numRel;
        f = ((x + 1) * P * R) / (x * P + R);
      }
      float(out, named(t, "set_F"), f);
    },
  },
  {
    name: "num_nonrel_judged_ret",
    params: NONE,
    compute: (t, out) => count(out, "num_nonrel_judged_ret", judgedNonrelevantRetrieved(t.r, t.level)),
  },
  {
    name: "yaap",
    params: NONE,
    notAllTrec: true,
    compute: (t, out) => float(out, "yaap", yaap(t.r, t.level)),
  },
  {
    name: "rbp",
    params: PAIRS,
    compute: (t, out) => float(out, named(t, "rbp"), rankBiasedPrecision(t.r, t.spec.pairs ?? [])),
  },
  {
    name: "rbp_resid",
    params: PAIRS,
    compute: (t, out) => float(out, named(t, "rbp_resid"), rankBiasedResidual(t.r, t.spec.pairs ?? [])),
    missing: zeroIfNamed("rbp_resid"),
  },
  {
    name: "unj",
    params: { kind: "cutoffs", defaults: [5, 10, 20], fraction: false },
    compute: (t, out) => perCutoff(out, t, "unj", unjudgedAt(t.r, t.cut)),
    missing: zero,
  },
];

/** The table's entries by name. */
export const MEASURE_BY_NAME: ReadonlyMap<string, Measure> = new Map(MEASURE_TABLE.map((m) => [m.name, m]));

/** A measure's entry; an unknown name is a RangeError (parseMeasures names the known ones first). */
export function measureNamed(name: string): Measure {
  const m = MEASURE_BY_NAME.get(name);
  if (m === undefined) throw new RangeError(`unknown measure ${JSON.stringify(name)}`);
  return m;
}

/** A measure's cut-offs: given, else its defaults (none for a measure without cut-offs). */
export function cutoffsOf(measure: Measure, spec: MeasureSpec): readonly number[] {
  return spec.cutoffs ?? (measure.params.kind === "cutoffs" ? measure.params.defaults : []);
}
