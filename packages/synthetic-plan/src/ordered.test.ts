import { describe, expect, it } from "vitest";
import { ClariqIds } from "./ids.js";
import { numberTopics } from "./numbering.js";
import { topicContexts, topicCounts, topicRecords } from "./records.js";
import type { TopicPlan } from "./topics.js";

function plan(topic: number, F: number, n: number): TopicPlan {
  const facets = Array.from({ length: F }, (_, f) => `F${topic}${f}`);
  return {
    topic_id: topic,
    initial_request: `request ${topic}`,
    facets,
    answers: facets.map((f) =>
      Array.from({ length: n }, (_, i) => ({
        question_id: `Q${topic}${i}`,
        question: `q${i}`,
        answer: `${f} a${i}`,
      })),
    ),
  };
}

describe("histories as sets (ClariQ) and as ordered sequences", () => {
  const plans = [plan(301, 2, 4), plan(302, 3, 5)];
  for (const ordered of [false, true]) {
    it(`${ordered ? "ordered" : "unordered"}: counts, unique ids that decode to what each record is`, () => {
      const nums = numberTopics(plans, { ordered, absent: new Set() });
      const ids = new ClariqIds(plans, nums);
      const recIds = new Set<number>();
      for (const p of plans) {
        const num = nums.get(p.topic_id)!;
        const recs = [...topicRecords(p, num)];
        const c = topicCounts(p, 2, ordered);
        expect(recs.length).toBe(c.records[0]! + c.records[1]! + c.records[2]!);
        const ctx = [...topicContexts(p, num)];
        expect(ctx.length).toBe(c.contexts[0]! + c.contexts[1]! + c.contexts[2]!);
        expect(new Set(ctx.map((x) => x.context_id)).size).toBe(ctx.length);
        for (const r of recs) {
          recIds.add(r.record_id);
          const d = ids.decodeRecord(r.record_id);
          expect(p.facets[d.facet]).toBe(r.facet_id);
          expect(p.answers[d.facet]![d.question]!.question).toBe(r.question);
          expect(d.history.map((h) => `q${h}`)).toEqual(r.conversation_context.map((t) => t.question));
          expect(ids.decodeContext(r.context_id).history).toEqual(d.history);
        }
      }
      const total = [...recIds].length;
      expect(Math.min(...recIds)).toBe(2000);
      expect(Math.max(...recIds)).toBe(2000 + total - 1);
      if (ordered) {
        // [a, b] and [b, a] are different contexts; for a < b the id is ClariQ's.
        const unordered = numberTopics(plans, { absent: new Set() });
        const p = plans[1]!;
        const two = [...topicContexts(p, nums.get(302)!)].filter((x) => x.history.length === 2);
        const twoSets = [...topicContexts(p, unordered.get(302)!)].filter((x) => x.history.length === 2);
        expect(two.length).toBe(2 * twoSets.length);
        const setIds = new Map(twoSets.map((x) => [`${x.facet}:${x.history}`, x.context_id]));
        for (const x of two)
          if (x.history[0]! < x.history[1]!) expect(x.context_id).toBe(setIds.get(`${x.facet}:${x.history}`));
      }
    });
  }
});
