// Qulac's own flavour: qulac_hist012_dict records from qulac.json alone, with Qulac's string ids.
import type { QulacHistRecord, QulacRow } from "@convkit/formats";
import { encodeQulacId } from "./ids.js";

/** A Qulac topic: facets and their rows by question number (Qulac's `X` no-question rows left out). */
export interface QulacTopic {
  topic: number;
  query: string;
  facets: number[];
  /** Question numbers, ascending (the items). */
  questions: number[];
  /** rows[facet][question] */
  rows: Map<number, Map<number, QulacRow>>;
}

/** Groups qulac.json rows into topics. */
export function qulacTopics(rows: readonly QulacRow[]): QulacTopic[] {
  const byTopic = new Map<number, QulacTopic>();
  for (const r of rows) {
    const [, , q] = r.topic_facet_question_id.split("-");
    if (q === undefined || !/^\d+$/.test(q)) continue;
    let t = byTopic.get(r.topic_id);
    if (!t) {
      t = { topic: r.topic_id, query: r.topic, facets: [], questions: [], rows: new Map() };
      byTopic.set(r.topic_id, t);
    }
    let f = t.rows.get(r.facet_id);
    if (!f) {
      f = new Map();
      t.rows.set(r.facet_id, f);
    }
    f.set(Number(q), r);
  }
  for (const t of byTopic.values()) {
    t.facets = [...t.rows.keys()].sort((a, b) => a - b);
    t.questions = [...new Set([...t.rows.values()].flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
  }
  return [...byTopic.values()].sort((a, b) => a.topic - b.topic);
}

/**
 * The records of a Qulac topic: for every facet, every unordered history of up to `maxHistory`
 * of the facet's questions (ascending) and every other question as the current one. Ids are
 * `topic-facet[-h1][-h2]-question-1`; histories take the facet's own answers.
 */
export function* qulacRecords(t: QulacTopic, maxHistory = 2): Generator<QulacHistRecord> {
  for (const facet of t.facets) {
    const rows = t.rows.get(facet);
    if (!rows) throw new RangeError(`topic ${t.topic}: facet ${facet} has no rows`);
    // As in ClariQ's scheme, every facet is paired with every question of the topic; a facet
    // without a row for one still gets it (the question's text from another facet, no answer).
    const qs = t.questions;
    const row = (q: number): { question: string; answer: string } => {
      const own = rows.get(q);
      if (own) return own;
      for (const m of t.rows.values()) {
        const other = m.get(q);
        if (other) return { question: other.question, answer: "" };
      }
      return { question: "", answer: "" };
    };
    const histories: number[][] = [[]];
    if (maxHistory >= 1) for (const a of qs) histories.push([a]);
    if (maxHistory >= 2)
      for (const [i, a] of qs.entries()) for (const b of qs.slice(i + 1)) histories.push([a, b]);
    for (const h of histories) {
      const historyId = [t.topic, facet, ...h].join("-");
      const list = h.map((q) => ({ question: row(q).question, answer: row(q).answer }));
      for (const q of qs) {
        if (h.includes(q)) continue;
        const r = row(q);
        yield {
          record_id: encodeQulacId({ topic: t.topic, facet, history: h, question: q, flag: 1 }),
          history_id: historyId,
          history_list: list,
          query: t.query,
          question: r.question,
          answer: r.answer,
        };
      }
    }
  }
}
