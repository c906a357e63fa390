// ClariQ's synthetic dict items written as pickle opcodes straight from the plan (no record objects).
import type { PickleWriter } from "@convkit/pickle";
import {
  contextId,
  itemCount,
  planItem,
  recordId,
  type TopicNumbers,
  type TopicPlan,
  twoTurnHistories,
} from "@convkit/synthetic-plan";

/**
 * Writes the `record_id: {...}` items of one history length of a topic into an open dict of
 * `w`, in record-id order, each batch of 1,000 closed with SETITEMS (as CPython batches). Each
 * context's history list (and each turn dict) is written once and referenced after, as
 * CPython's memo shares them. Returns the number of items written.
 */
export function topicPickleItems(
  plan: TopicPlan,
  nums: TopicNumbers,
  level: number,
  w: PickleWriter,
  state: { open: number },
): number {
  const F = plan.facets.length;
  const n = itemCount(plan);
  const turns = new Map<number, number>(); // f * n + item → memo index of its {question, answer}
  const lists = new Map<number, number>(); // context id → memo index of its list
  let count = 0;
  const turn = (f: number, i: number) => {
    const key = f * n + i;
    const idx = turns.get(key);
    if (idx !== undefined) return w.ref(idx);
    const it = planItem(planItem(plan.answers, f), i);
    w.op("EMPTY_DICT");
    turns.set(key, w.memoize());
    w.op("MARK");
    w.str("question");
    w.str(it.question);
    w.str("answer");
    w.str(it.answer);
    w.op("SETITEMS");
  };
  const item = (f: number, history: number[], x: number) => {
    if (state.open === 0) w.op("MARK");
    const it = planItem(planItem(plan.answers, f), x);
    const cid = contextId(nums, F, n, f, history);
    w.int(recordId(nums, F, n, f, history, x));
    w.op("EMPTY_DICT");
    w.op("MARK");
    w.str("topic_id");
    w.int(plan.topic_id);
    w.str("facet_id");
    w.str(planItem(plan.facets, f));
    w.str("initial_request");
    w.str(plan.initial_request);
    w.str("question");
    w.str(it.question);
    w.str("answer");
    w.str(it.answer);
    w.str("conversation_context");
    const listIdx = history.length > 0 ? lists.get(cid) : undefined;
    if (listIdx !== undefined) w.ref(listIdx);
    else {
      w.op("EMPTY_LIST");
      const idx = w.memoize();
      if (history.length > 0) lists.set(cid, idx);
      const [only] = history;
      if (history.length === 1 && only !== undefined) {
        turn(f, only);
        w.op("APPEND");
      } else if (history.length > 1) {
        w.op("MARK");
        for (const h of history) turn(f, h);
        w.op("APPENDS");
      }
    }
    w.str("context_id");
    w.int(cid);
    w.op("SETITEMS");
    count++;
    if (++state.open === 1000) {
      w.op("SETITEMS");
      state.open = 0;
      w.flushFrame();
    }
  };
  if (level === 0) {
    for (let x = 0; x < n; x++) for (let f = 0; f < F; f++) item(f, [], x);
  } else if (level === 1) {
    for (let x = 0; x < n; x++)
      for (let y = 0; y < n; y++) if (y !== x) for (let f = 0; f < F; f++) item(f, [y], x);
  } else {
    for (const [a, b] of twoTurnHistories(n, nums.ordered === true))
      for (let f = 0; f < F; f++) {
        const h = [a, b];
        for (let c = 0; c < n; c++) if (c !== a && c !== b) item(f, h, c);
      }
  }
  return count;
}
