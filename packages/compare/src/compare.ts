// The comparison: topics aligned per measure, every pair (or each run against a baseline) tested, p-values corrected per measure.
import { InputError, UsageError } from "@convkit/io";
import { openTaskPool, type TaskPool } from "@convkit/pool";
import { numpyMean } from "@convkit/pycompat";
import {
  AllZeroDifferences,
  type Alternative,
  binomTestHalf,
  type Correction,
  differences,
  multipleTests,
  pairedTTest,
  summarizePair,
  wilcoxon,
  type ZeroMethod,
} from "@convkit/stats";
import type { PerTopicTable } from "./per-topic.js";
import { type RandomizationTask, randomizationP } from "./randomization-task.js";

export const TESTS = ["t", "wilcoxon", "sign", "randomization"] as const;
export type TestName = (typeof TESTS)[number];

export interface CompareOptions {
  /** Measures to compare, in this order (default: those every run has but counts, num_*, in the first run's order). */
  measures?: readonly string[];
  /** Compare each other run against this one (a run name); default: every pair. */
  baseline?: string;
  test: TestName;
  alternative: Alternative;
  correction: Correction;
  alpha: number;
  /** Topics a run lacks: "drop" compares on the topics every run has; "zero" counts them 0. */
  missing: "drop" | "zero";
  zeroMethod: ZeroMethod;
  /** The Wilcoxon normal approximation's continuity correction. */
  continuity: boolean;
  permutations: number;
  seed: number;
  /** Threads for the randomization test (results are the same for any number). */
  threads: number;
}

/** One pair on one measure: what the JSON holds (names as papers and SciPy use them). */
export interface PairResult {
  measure: string;
  a: string;
  b: string;
  n: number;
  mean_a: number;
  mean_b: number;
  mean_diff: number;
  /** The paired t statistic (whatever the test). */
  t: number;
  /** The chosen test's statistic: t, Wilcoxon's W, the sign test's wins, the mean difference. */
  statistic: number;
  p: number;
  p_adjusted: number;
  reject: boolean;
  cohen_dz: number;
  ci95: [number, number];
  wins: number;
  ties: number;
  losses: number;
}

export interface Comparison {
  test: TestName;
  alternative: Alternative;
  correction: Correction;
  alpha: number;
  missing: "drop" | "zero";
  permutations?: number;
  seed?: number;
  runs: string[];
  baseline?: string;
  measures: { name: string; topics: number; means: number[] }[];
  pairs: PairResult[];
}

/** A run's values of a measure (chooseMeasures checked that every run has it). */
function valuesOf(run: PerTopicTable["runs"][number], measure: string): Map<string, number> {
  const m = run.values.get(measure);
  if (m === undefined) throw new Error(`${run.name} has no ${measure}`);
  return m;
}

/** The measures to compare: asked for (each run must have it), or those all runs have. */
function chooseMeasures(table: PerTopicTable, asked: readonly string[] | undefined): string[] {
  const [first] = table.runs;
  if (first === undefined) throw new UsageError("convkit-compare needs at least two runs");
  if (asked && asked.length > 0) {
    for (const m of asked)
      for (const r of table.runs)
        if (!r.values.has(m))
          throw new InputError(
            r.name,
            {},
            `values of measure ${m}`,
            `none (it has ${[...r.values.keys()].join(", ")})`,
          );
    return [...asked];
  }
  // trec_eval -q files also hold counts (num_ret, num_rel, …): no scores to compare.
  const common = [...first.values.keys()].filter(
    (m) => !m.startsWith("num_") && table.runs.every((r) => r.values.has(m)),
  );
  if (common.length === 0) throw new InputError(first.name, {}, "a measure every run has", "none in common");
  return common;
}

/** The topics a measure is compared on, in the first run's order (then the others' new ones). */
function topicsOf(table: PerTopicTable, measure: string, missing: "drop" | "zero"): string[] {
  const maps = table.runs.map((r) => valuesOf(r, measure));
  if (missing === "drop") {
    const common = [...(maps[0]?.keys() ?? [])].filter((t) => maps.every((m) => m.has(t)));
    if (common.length === 0)
      throw new InputError(
        table.runs.map((r) => r.name).join(", "),
        {},
        `topics every run has for ${measure}`,
        "none in common (--missing zero counts a missing topic 0)",
      );
    return common;
  }
  const all = new Set<string>();
  for (const m of maps) for (const t of m.keys()) all.add(t);
  return [...all];
}

/** A per-topic value as compared: a run's value of a measure on a topic (0 where `--missing zero` filled it). */
export interface ComparedValue {
  run: string;
  measure: string;
  topic: string;
  value: number;
}

/**
 * The per-topic values a comparison tested, measure by measure, run by run, topic by topic in the
 * order compareRuns aligns them (the same topicsOf): the table behind its means and tests.
 */
export function comparedValues(table: PerTopicTable, c: Comparison): ComparedValue[] {
  const out: ComparedValue[] = [];
  for (const { name: measure } of c.measures) {
    const topics = topicsOf(table, measure, c.missing);
    for (const r of table.runs) {
      const m = valuesOf(r, measure);
      for (const topic of topics) out.push({ run: r.name, measure, topic, value: m.get(topic) ?? 0 });
    }
  }
  return out;
}

/** The pairs to test, as indexes (a, b): each run against the baseline, or every pair in input order. */
function pairsOf(runs: readonly string[], baseline: string | undefined): [number, number][] {
  if (baseline !== undefined) {
    const b = runs.indexOf(baseline);
    if (b < 0)
      throw new UsageError(
        `convkit-compare: --baseline ${baseline}: not one of the runs (${runs.join(", ")})`,
      );
    return runs.flatMap((_, i) => (i === b ? [] : [[i, b] as [number, number]]));
  }
  const out: [number, number][] = [];
  for (let i = 0; i < runs.length; i++) for (let j = i + 1; j < runs.length; j++) out.push([i, j]);
  return out;
}

/** Compares the runs of a per-topic table. */
export async function compareRuns(table: PerTopicTable, o: CompareOptions): Promise<Comparison> {
  if (table.runs.length < 2) throw new UsageError("convkit-compare needs at least two runs");
  const runs = table.runs.map((r) => r.name);
  const measures = chooseMeasures(table, o.measures);
  const pairs = pairsOf(runs, o.baseline);
  const out: Comparison = {
    test: o.test,
    alternative: o.alternative,
    correction: o.correction,
    alpha: o.alpha,
    missing: o.missing,
    ...(o.test === "randomization" ? { permutations: o.permutations, seed: o.seed } : {}),
    runs,
    ...(o.baseline === undefined ? {} : { baseline: o.baseline }),
    measures: [],
    pairs: [],
  };
  const pool =
    o.test === "randomization" && o.threads > 1
      ? await openTaskPool<RandomizationTask, number>({
          worker: new URL("./worker.js", import.meta.url),
          threads: o.threads,
        })
      : undefined;
  try {
    for (const measure of measures) {
      const topics = topicsOf(table, measure, o.missing);
      const vectors = table.runs.map((r) => {
        const m = valuesOf(r, measure);
        return Float64Array.from(topics, (t) => m.get(t) ?? 0);
      });
      out.measures.push({ name: measure, topics: topics.length, means: vectors.map((v) => numpyMean(v)) });
      const side = (k: number): [string, Float64Array] => {
        const run = runs[k];
        const v = vectors[k];
        if (run === undefined || v === undefined) throw new Error(`no run ${k} of ${runs.length}`);
        return [run, v];
      };
      const results = await Promise.all(
        pairs.map(async ([i, j]) => {
          const [a, va] = side(i);
          const [b, vb] = side(j);
          return pairResult(measure, a, b, va, vb, o, pool);
        }),
      );
      // The family of a correction: this measure's tests that have a p-value.
      const tested = results.filter((r) => !Number.isNaN(r.p));
      const corrected = multipleTests(
        tested.map((r) => r.p),
        o.correction,
        o.alpha,
      );
      tested.forEach((r, k) => {
        r.p_adjusted = corrected.pAdjusted[k]!;
        r.reject = corrected.reject[k]!;
      });
      out.pairs.push(...results);
    }
  } finally {
    await pool?.destroy();
  }
  return out;
}

async function pairResult(
  measure: string,
  a: string,
  b: string,
  x: Float64Array,
  y: Float64Array,
  o: CompareOptions,
  pool: TaskPool<RandomizationTask, number> | undefined,
): Promise<PairResult> {
  const s = summarizePair(x, y);
  const tt = pairedTTest(x, y, o.alternative);
  let statistic = tt.t;
  let p = tt.p;
  if (o.test === "wilcoxon") {
    try {
      const w = wilcoxon(x, y, {
        zeroMethod: o.zeroMethod,
        correction: o.continuity,
        alternative: o.alternative,
      });
      statistic = w.statistic;
      p = w.p;
    } catch (e) {
      // Identical runs: SciPy refuses them; the pair has no p-value.
      if (!(e instanceof AllZeroDifferences)) throw e;
      statistic = Number.NaN;
      p = Number.NaN;
    }
  } else if (o.test === "sign") {
    statistic = s.wins;
    p = binomTestHalf(s.wins, s.wins + s.losses, o.alternative);
  } else if (o.test === "randomization") {
    const task: RandomizationTask = {
      d: differences(x, y),
      key: `${measure}\t${a}\t${b}`,
      seed: o.seed,
      permutations: o.permutations,
      alternative: o.alternative,
    };
    statistic = s.meanDiff;
    p = pool ? await pool.run(task) : randomizationP(task);
  }
  return {
    measure,
    a,
    b,
    n: s.n,
    mean_a: s.meanA,
    mean_b: s.meanB,
    mean_diff: s.meanDiff,
    t: tt.t,
    statistic,
    p,
    p_adjusted: Number.NaN,
    reject: false,
    cohen_dz: s.cohenDz,
    ci95: s.ci95,
    wins: s.wins,
    ties: s.ties,
    losses: s.losses,
  };
}
