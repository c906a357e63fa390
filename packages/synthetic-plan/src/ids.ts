// Record and context ids: Qulac's strings (`topic-facet[-h1][-h2]-question-flag`) and ClariQ's ints.
import { InputError } from "@convkit/io";
import { contextId, recordId, type TopicNumbers } from "./numbering.js";
import { itemCount, type TopicPlan } from "./topics.js";

/** The parts of a Qulac record id. */
export interface QulacId {
  topic: number;
  facet: number;
  /** 0, 1 or 2 earlier question numbers. */
  history: number[];
  question: number;
  /** 1 with the answer, 0 without (Qulac's eval-dict keys). */
  flag: number;
}

/** `topic-facet[-h1][-h2]-question-flag`. */
export function encodeQulacId(id: QulacId): string {
  return [id.topic, id.facet, ...id.history, id.question, id.flag].join("-");
}

/** Parses a Qulac record id; anything but 4 to 6 dash-separated integers is an error. */
export function decodeQulacId(s: string): QulacId {
  const parts = s.split("-");
  const [topic, facet, ...history] = parts.map(Number);
  const flag = history.pop();
  const question = history.pop();
  // 4 to 6 parts: topic, facet, question and flag there, at most 2 left for the history.
  if (
    topic === undefined ||
    facet === undefined ||
    question === undefined ||
    flag === undefined ||
    history.length > 2 ||
    parts.some((p) => !/^\d+$/.test(p))
  ) {
    throw new InputError(
      "qulac id",
      {},
      "topic-facet[-h1][-h2]-question-flag (4 to 6 integers)",
      JSON.stringify(s),
    );
  }
  return { topic, facet, history, question, flag };
}

/** What a ClariQ record or context id stands for. */
export interface ClariqIdParts {
  topic_id: number;
  /** Facet index within the topic (facet ids in id order). */
  facet: number;
  /** Item indices of the history, ascending. */
  history: number[];
  /** Item index of the current question (records only). */
  question?: number;
}

interface Span {
  start: number;
  end: number;
  plan: TopicPlan;
  nums: TopicNumbers;
  level: number;
}

/** Encodes and decodes ClariQ's int ids for a set of numbered topics. */
export class ClariqIds {
  private readonly spans: Span[] = [];
  private readonly empty = new Map<number, { plan: TopicPlan; facet: number }>();

  constructor(plans: readonly TopicPlan[], numbers: ReadonlyMap<number, TopicNumbers>) {
    for (const plan of plans) {
      const nums = numbers.get(plan.topic_id);
      if (!nums) continue;
      const F = plan.facets.length;
      const n = itemCount(plan);
      const levels = [
        [nums.L1base, F * n],
        [nums.L2base, F * n * (n - 1)],
        [nums.L3base, (F * n * (n - 1) * (n - 2)) / (nums.ordered ? 1 : 2)],
      ] as const;
      for (const [level, [start, size]] of levels.entries())
        this.spans.push({ start, end: start + size, plan, nums, level });
      for (const [facet, id] of nums.emptyContext.entries()) this.empty.set(id, { plan, facet });
    }
    this.spans.sort((a, b) => a.start - b.start);
  }

  /** The record id of (topic, facet index, history, question). */
  record(parts: Required<ClariqIdParts>, nums: TopicNumbers, plan: TopicPlan): number {
    return recordId(nums, plan.facets.length, itemCount(plan), parts.facet, parts.history, parts.question);
  }

  /** The context id of (topic, facet index, history). */
  context(parts: ClariqIdParts, nums: TopicNumbers, plan: TopicPlan): number {
    return contextId(nums, plan.facets.length, itemCount(plan), parts.facet, parts.history);
  }

  private span(id: number): Span | undefined {
    let lo = 0;
    let hi = this.spans.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = this.spans[mid];
      if (s === undefined) break; // lo <= mid <= hi are in range
      if (id < s.start) hi = mid - 1;
      else if (id >= s.end) lo = mid + 1;
      else return s;
    }
    return undefined;
  }

  /** What a record id stands for. */
  decodeRecord(id: number): Required<ClariqIdParts> {
    const s = this.span(id);
    if (!s) throw new InputError("clariq id", {}, "a record id of the numbered topics", String(id));
    const F = s.plan.facets.length;
    const n = itemCount(s.plan);
    let k = id - s.start;
    if (s.level === 0)
      return { topic_id: s.plan.topic_id, facet: k % F, history: [], question: Math.floor(k / F) };
    if (s.level === 1) {
      const f = k % F;
      k = Math.floor(k / F);
      const yi = k % (n - 1);
      const x = Math.floor(k / (n - 1));
      return { topic_id: s.plan.topic_id, facet: f, history: [yi < x ? yi : yi + 1], question: x };
    }
    const ci = k % (n - 2);
    k = Math.floor(k / (n - 2));
    const f = k % F;
    const pair = Math.floor(k / F);
    let a: number;
    let b: number;
    if (s.nums.ordered) {
      b = Math.floor(pair / (n - 1));
      const ai = pair % (n - 1);
      a = ai < b ? ai : ai + 1;
    } else {
      b = 1;
      while (((b + 1) * b) / 2 <= pair) b++;
      a = pair - (b * (b - 1)) / 2;
    }
    const h = [a, b].sort((x, y) => x - y);
    let c = ci;
    for (const x of h) if (c >= x) c++;
    return { topic_id: s.plan.topic_id, facet: f, history: [a, b], question: c };
  }

  /** What a context id stands for. */
  decodeContext(id: number): ClariqIdParts {
    const e = this.empty.get(id);
    if (e) return { topic_id: e.plan.topic_id, facet: e.facet, history: [] };
    const s = this.span(id);
    if (!s || s.level === 2)
      throw new InputError("clariq id", {}, "a context id of the numbered topics", String(id));
    const F = s.plan.facets.length;
    const n = itemCount(s.plan);
    const k = id - s.start;
    if (s.level === 0) return { topic_id: s.plan.topic_id, facet: k % F, history: [Math.floor(k / F)] };
    const f = k % F;
    const rest = Math.floor(k / F);
    const ai = rest % (n - 1);
    const b = Math.floor(rest / (n - 1));
    const a = s.nums.ordered ? (ai < b ? ai : ai + 1) : ai;
    if (!s.nums.ordered && a >= b)
      throw new InputError("clariq id", {}, "a two-turn context id (history a < b)", String(id));
    return { topic_id: s.plan.topic_id, facet: f, history: [a, b] };
  }
}
