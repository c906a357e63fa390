// The records of a planned topic, in record-id order, in batches.
import type { SyntheticRecord } from "@convkit/formats";
import { contextId, planItem, recordId, type TopicNumbers } from "./numbering.js";
import { itemCount, type TopicPlan } from "./topics.js";

/**
 * The records of a topic with histories of `levels` turns (default all: 0, then 1, then 2), each
 * level in record-id order. ClariQ numbers level by level across topics, so id order over a whole
 * set is: for each pass, for each level, for each topic.
 */
export function* topicRecords(
  plan: TopicPlan,
  nums: TopicNumbers,
  levels: readonly number[] = [0, 1, 2],
): Generator<SyntheticRecord> {
  const F = plan.facets.length;
  const n = itemCount(plan);
  const rec = (f: number, history: number[], x: number): SyntheticRecord => {
    const row = planItem(plan.answers, f);
    const { question, answer } = planItem(row, x);
    return {
      record_id: recordId(nums, F, n, f, history, x),
      topic_id: plan.topic_id,
      facet_id: planItem(plan.facets, f),
      initial_request: plan.initial_request,
      question,
      answer,
      conversation_context: history.map((h) => {
        const t = planItem(row, h);
        return { question: t.question, answer: t.answer };
      }),
      context_id: contextId(nums, F, n, f, history),
    };
  };
  if (levels.includes(0)) for (let x = 0; x < n; x++) for (let f = 0; f < F; f++) yield rec(f, [], x);
  if (levels.includes(1))
    for (let x = 0; x < n; x++)
      for (let y = 0; y < n; y++) if (y !== x) for (let f = 0; f < F; f++) yield rec(f, [y], x);
  if (!levels.includes(2)) return;
  for (const [a, b] of twoTurnHistories(n, nums.ordered === true))
    for (let f = 0; f < F; f++) for (let c = 0; c < n; c++) if (c !== a && c !== b) yield rec(f, [a, b], c);
}

/** Two-turn histories in context-id order: unordered sets [a < b] (ClariQ), or every ordered pair. */
export function* twoTurnHistories(n: number, ordered: boolean): Generator<[number, number]> {
  for (let b = 0; b < n; b++) for (let a = 0; a < n; a++) if (ordered ? a !== b : a < b) yield [a, b];
}

/** Counts of a topic's contexts by history length and of its records. */
export function topicCounts(plan: TopicPlan, maxHistory = 2, ordered = false) {
  const F = plan.facets.length;
  const n = itemCount(plan);
  const d = ordered ? 1 : 2;
  const c: [number, number, number] = [
    F,
    maxHistory >= 1 ? F * n : 0,
    maxHistory >= 2 ? (F * n * (n - 1)) / d : 0,
  ];
  const r: [number, number, number] = [
    F * n,
    maxHistory >= 1 ? F * n * (n - 1) : 0,
    maxHistory >= 2 ? (F * n * (n - 1) * (n - 2)) / d : 0,
  ];
  return { contexts: c, records: r };
}

/** The contexts of a topic in context-id order within each history length: facet, history, id, record count. */
export function* topicContexts(plan: TopicPlan, nums: TopicNumbers, maxHistory = 2) {
  const F = plan.facets.length;
  const n = itemCount(plan);
  for (let f = 0; f < F; f++)
    yield { facet: f, history: [] as number[], context_id: contextId(nums, F, n, f, []), records: n };
  if (maxHistory >= 1)
    for (let y = 0; y < n; y++)
      for (let f = 0; f < F; f++)
        yield { facet: f, history: [y], context_id: contextId(nums, F, n, f, [y]), records: n - 1 };
  if (maxHistory >= 2)
    for (const [a, b] of twoTurnHistories(n, nums.ordered === true))
      for (let f = 0; f < F; f++)
        yield { facet: f, history: [a, b], context_id: contextId(nums, F, n, f, [a, b]), records: n - 2 };
}
