// ClariQ's numbering of synthetic records and contexts (one counter from 2000, two passes, three levels).
import { itemCount, type TopicPlan } from "./topics.js";

/**
 * `xs[i]` at an index computed from the arrays' own sizes (a plan's facets and items, a bank's
 * ranked rows), so out of range is a bug: a RangeError, never an undefined passed on.
 */
export function planItem<T>(xs: ArrayLike<T>, i: number): T {
  const v = xs[i];
  if (v === undefined) throw new RangeError(`index ${i} out of range (length ${xs.length})`);
  return v;
}

/** Topics left out of ClariQ's synthetic sets (and of the empty-context numbering). */
export const ABSENT_TOPICS: ReadonlySet<number> = new Set([15, 166, 168, 269]);

/** Where a topic's ids start. */
export interface TopicNumbers {
  /** Empty-context id of each facet (facet order). */
  emptyContext: number[];
  /** First record id of level 0 (= first one-turn context id). */
  L1base: number;
  /** First record id of level 1 (= first two-turn context id). */
  L2base: number;
  /** First record id of level 2. */
  L3base: number;
  /** Histories are ordered sequences ([a, b] and [b, a] differ), not ClariQ's unordered sets. */
  ordered?: boolean;
}

/** Options of the numbering. */
export interface NumberingOptions {
  /** First record id (ClariQ: 2000). */
  start?: number;
  /** Topics numbered in the first pass (ClariQ: Qulac's, <= 200). */
  firstPassMax?: number;
  absent?: ReadonlySet<number>;
  /** Ordered two-turn histories (twice ClariQ's level 2; ids of later topics shift accordingly). */
  ordered?: boolean;
}

/**
 * Numbers every topic as ClariQ did: empty contexts by facet over all topics sorted by topic id
 * as strings; records by one counter over pass 1 (topics <= 200) then pass 2, each pass running
 * level 0 (no history) for all its topics, then level 1, then level 2.
 */
export function numberTopics(
  plans: readonly TopicPlan[],
  options: NumberingOptions = {},
): Map<number, TopicNumbers> {
  const absent = options.absent ?? ABSENT_TOPICS;
  const firstPassMax = options.firstPassMax ?? 200;
  const kept = plans.filter((p) => !absent.has(p.topic_id));
  const out = new Map<number, TopicNumbers>();
  let facetNo = 0;
  const numbered = [...kept]
    .sort((a, b) =>
      String(a.topic_id) < String(b.topic_id) ? -1 : String(a.topic_id) > String(b.topic_id) ? 1 : 0,
    )
    .map((p) => {
      const t: TopicNumbers = {
        emptyContext: p.facets.map(() => ++facetNo),
        L1base: 0,
        L2base: 0,
        L3base: 0,
      };
      out.set(p.topic_id, t);
      return { p, t };
    });
  let counter = options.start ?? 2000;
  const byId = numbered.sort((a, b) => a.p.topic_id - b.p.topic_id);
  for (const pass of [
    byId.filter(({ p }) => p.topic_id <= firstPassMax),
    byId.filter(({ p }) => p.topic_id > firstPassMax),
  ]) {
    for (const { p, t } of pass) {
      const n = itemCount(p);
      t.L1base = counter;
      counter += p.facets.length * n;
    }
    for (const { p, t } of pass) {
      const n = itemCount(p);
      t.L2base = counter;
      counter += p.facets.length * n * (n - 1);
    }
    for (const { p, t } of pass) {
      const n = itemCount(p);
      t.L3base = counter;
      if (options.ordered) t.ordered = true;
      counter += (p.facets.length * n * (n - 1) * (n - 2)) / (options.ordered ? 1 : 2);
    }
  }
  return out;
}

/**
 * Context id of (facet f, history) in a topic: [] → empty id, [y] → one-turn, [a, b] → two-turn:
 * the id of the one-turn record that asks b after a (for a < b, ClariQ's numbering).
 */
export function contextId(
  nums: TopicNumbers,
  F: number,
  n: number,
  f: number,
  history: readonly number[],
): number {
  const [a, b] = history;
  if (a === undefined) return planItem(nums.emptyContext, f);
  if (b === undefined) return nums.L1base + a * F + f;
  return nums.L2base + b * F * (n - 1) + (a < b ? a : a - 1) * F + f;
}

/** Record id of (facet f, history, current question x). */
export function recordId(
  nums: TopicNumbers,
  F: number,
  n: number,
  f: number,
  history: readonly number[],
  x: number,
): number {
  const [a, b] = history;
  if (a === undefined) return nums.L1base + x * F + f;
  if (b === undefined) return nums.L2base + x * F * (n - 1) + (a < x ? a : a - 1) * F + f;
  const ci = x - (x > a ? 1 : 0) - (x > b ? 1 : 0);
  const pair = nums.ordered ? b * (n - 1) + (a < b ? a : a - 1) : (b * (b - 1)) / 2 + a;
  return nums.L3base + ((pair * F + f) * (n - 2) + ci);
}
