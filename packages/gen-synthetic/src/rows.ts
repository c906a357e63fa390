// Synthetic records as table rows (the Parquet output), made straight from the plans.
import type { QaTurn, SyntheticRecord } from "@convkit/formats";
import {
  contextId,
  recordId,
  type TopicNumbers,
  type TopicPlan,
  twoTurnHistories,
} from "@convkit/synthetic-plan";
import type { RecordTask } from "./generate.js";

const EMPTY: readonly QaTurn[] = Object.freeze([]);

/**
 * The records of one history length of a topic, in record-id order, as {@link topicJsonl} writes
 * them: each item's turn and each context's history made once and shared by every record of the
 * context (rows are only read by the writer), so a row costs one small object.
 */
function topicRows(plan: TopicPlan, nums: TopicNumbers, level: number, out: SyntheticRecord[]): void {
  const F = plan.facets.length;
  const n = plan.answers[0]!.length;
  const turns = plan.answers.map((row) => row.map((it) => ({ question: it.question, answer: it.answer })));
  const row = (f: number, history: number[], x: number, ctx: readonly QaTurn[], context_id: number) => {
    const it = plan.answers[f]![x]!;
    out.push({
      record_id: recordId(nums, F, n, f, history, x),
      topic_id: plan.topic_id,
      facet_id: plan.facets[f]!,
      initial_request: plan.initial_request,
      question: it.question,
      answer: it.answer,
      conversation_context: ctx as QaTurn[],
      context_id,
    });
  };
  if (level === 0) {
    for (let x = 0; x < n; x++)
      for (let f = 0; f < F; f++) row(f, [], x, EMPTY, contextId(nums, F, n, f, []));
  } else if (level === 1) {
    const one = turns.map((r) => r.map((t) => [t]));
    for (let x = 0; x < n; x++)
      for (let y = 0; y < n; y++)
        if (y !== x) for (let f = 0; f < F; f++) row(f, [y], x, one[f]![y]!, contextId(nums, F, n, f, [y]));
  } else {
    for (const [a, b] of twoTurnHistories(n, nums.ordered === true))
      for (let f = 0; f < F; f++) {
        const h = [a, b];
        const ctx = [turns[f]![a]!, turns[f]![b]!];
        const cid = contextId(nums, F, n, f, h);
        for (let c = 0; c < n; c++) if (c !== a && c !== b) row(f, h, c, ctx, cid);
      }
  }
}

/** The rows of a task, in record-id order. */
export function taskRows(task: RecordTask): SyntheticRecord[] {
  const out: SyntheticRecord[] = [];
  for (const t of task.topics) topicRows(t.plan, t.numbers, task.level, out);
  return out;
}
