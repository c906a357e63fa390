// `-m` measure names and parameters, parsed as trec_eval reads them, in its measure table order.
import { UsageError } from "@convkit/io";

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
export const DEFAULT_CUTOFFS: Record<string, readonly number[]> = {
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
export const NUMBER_PARAMS: Record<string, { defaults: readonly number[]; count: number }> = {
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

/**
 * {@link parseMeasures} for a command's `-m` values: a measure unknown or badly given is a
 * {@link UsageError} naming the command (one line, exit 2, no stack), the same in every CLI.
 */
export function parseMeasureOptions(command: string, specs: readonly string[]): MeasureSpec[] {
  try {
    return parseMeasures(specs);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(`${command}: ${e.message}`);
    throw e;
  }
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
