// Synthetic records as table columns (the Parquet output), made straight from the plans.
import type { QaTurn } from "@convkit/formats";
import type { Columns } from "@convkit/parquet";
import {
  contextId,
  itemCount,
  planItem,
  recordId,
  type TopicNumbers,
  type TopicPlan,
  twoTurnHistories,
} from "@convkit/synthetic-plan";
import type { RecordTask } from "./generate.js";

const EMPTY: readonly QaTurn[] = Object.freeze([]);

/** A task's records as columns (SYNTHETIC_RECORD_SCHEMA's), no object per record. */
interface RecordColumns {
  record_id: number[];
  topic_id: number[];
  facet_id: string[];
  initial_request: string[];
  question: string[];
  answer: string[];
  conversation_context: (readonly QaTurn[])[];
  context_id: number[];
}

/**
 * The records of one history length of a topic, in record-id order, as {@link topicJsonl} writes
 * them, appended to `out`'s columns: each item's turn and each context's history made once and
 * shared by every record of the context (the writer only reads them).
 */
function topicRows(plan: TopicPlan, nums: TopicNumbers, level: number, out: RecordColumns): void {
  const F = plan.facets.length;
  const n = itemCount(plan);
  const turns = plan.answers.map((row) => row.map((it) => ({ question: it.question, answer: it.answer })));
  const row = (f: number, history: number[], x: number, ctx: readonly QaTurn[], context_id: number) => {
    const it = planItem(planItem(plan.answers, f), x);
    out.record_id.push(recordId(nums, F, n, f, history, x));
    out.topic_id.push(plan.topic_id);
    out.facet_id.push(planItem(plan.facets, f));
    out.initial_request.push(plan.initial_request);
    out.question.push(it.question);
    out.answer.push(it.answer);
    out.conversation_context.push(ctx);
    out.context_id.push(context_id);
  };
  if (level === 0) {
    for (let x = 0; x < n; x++)
      for (let f = 0; f < F; f++) row(f, [], x, EMPTY, contextId(nums, F, n, f, []));
  } else if (level === 1) {
    const one = turns.map((r) => r.map((t) => [t]));
    for (let x = 0; x < n; x++)
      for (let y = 0; y < n; y++)
        if (y !== x)
          for (const [f, ctx] of one.entries())
            row(f, [y], x, planItem(ctx, y), contextId(nums, F, n, f, [y]));
  } else {
    for (const [a, b] of twoTurnHistories(n, nums.ordered === true))
      for (const [f, t] of turns.entries()) {
        const h = [a, b];
        const ctx = [planItem(t, a), planItem(t, b)];
        const cid = contextId(nums, F, n, f, h);
        for (let c = 0; c < n; c++) if (c !== a && c !== b) row(f, h, c, ctx, cid);
      }
  }
}

/** The records of a task, in record-id order, as columns. */
export function taskColumns(task: RecordTask): Columns {
  const out: RecordColumns = {
    record_id: [],
    topic_id: [],
    facet_id: [],
    initial_request: [],
    question: [],
    answer: [],
    conversation_context: [],
    context_id: [],
  };
  for (const t of task.topics) topicRows(t.plan, t.numbers, task.level, out);
  return { ...out };
}
