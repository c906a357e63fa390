// A topic's items (its clarifying questions, in the order the synthetic sets number them) and facets.

import type { ClariqRow, QulacRow } from "@convkit/formats";
import { InputError } from "@convkit/io";

/** One facet's view of an item: the question as the facet's row has it, and the facet's answer. */
export interface FacetItem {
  question_id: string;
  question: string;
  answer: string;
}

/** A topic ready for synthesis: items 0..n-1 in numbering order, every facet answering every item. */
export interface TopicPlan {
  topic_id: number;
  initial_request: string;
  /** Facet ids in id order. */
  facets: string[];
  /** answers[f][i]: facet f's row for item i. */
  answers: FacetItem[][];
}

/** The number of items of a plan (every facet answers every item). */
export function itemCount(plan: TopicPlan): number {
  const [first] = plan.answers;
  if (first === undefined) throw new RangeError(`topic ${plan.topic_id}: a plan without facets`);
  return first.length;
}

/** The "no question" id: never an item. */
export const NO_QUESTION = "Q00001";

function normalize(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Similarity of two texts for the forgiving match: shared word bigrams and words (Dice). */
function similarity(a: string, b: string): number {
  const wa = normalize(a).split(" ");
  const wb = normalize(b).split(" ");
  const grams = (w: string[]) => new Set([...w, ...w.slice(1).map((x, i) => `${w[i]} ${x}`)]);
  const ga = grams(wa);
  const gb = grams(wb);
  let common = 0;
  for (const g of ga) if (gb.has(g)) common++;
  return (2 * common) / (ga.size + gb.size || 1);
}

/**
 * Qulac's question number for each ClariQ row of a topic (topics <= 200): exact (question, answer)
 * match within the Qulac facet that shares most pairs with the ClariQ facet, then the most similar
 * unmatched number for rows whose text ClariQ edited later.
 */
function qulacNumbers(
  file: string,
  topic: number,
  facets: Map<string, ClariqRow[]>,
  qulac: readonly QulacRow[],
): { numbers: Map<ClariqRow, number>; facets: Map<string, number> } {
  const byFacet = new Map<number, QulacRow[]>();
  for (const r of qulac) {
    const [, , num] = r.topic_facet_question_id.split("-");
    if (num === undefined || !/^\d+$/.test(num)) continue; // `X`: Qulac's "no question" row
    const l = byFacet.get(r.facet_id);
    if (l) l.push(r);
    else byFacet.set(r.facet_id, [r]);
  }
  const num = (r: QulacRow) => Number(r.topic_facet_question_id.split("-")[2]);
  const out = new Map<ClariqRow, number>();
  const facetOf = new Map<string, number>();
  const usedQulacFacets = new Set<number>();
  for (const [facet, rows] of facets) {
    let best: [number, QulacRow[]] | undefined;
    let bestScore = -1;
    for (const [qf, qrows] of byFacet) {
      if (usedQulacFacets.has(qf)) continue;
      const pairs = new Set(qrows.map((r) => `${r.question}\u0000${r.answer}`));
      const score = rows.filter((r) => pairs.has(`${r.question}\u0000${r.answer}`)).length;
      if (score > bestScore) [best, bestScore] = [[qf, qrows], score];
    }
    if (best === undefined)
      throw new InputError(
        file,
        {},
        `a Qulac facet for ClariQ facet ${facet} of topic ${topic}`,
        "none left",
      );
    const [bestFacet, qrows] = best;
    usedQulacFacets.add(bestFacet);
    facetOf.set(facet, bestFacet);
    const free = new Set(qrows);
    const pending: ClariqRow[] = [];
    for (const r of rows) {
      const hit = [...free].find((q) => q.question === r.question && q.answer === r.answer);
      if (hit) {
        out.set(r, num(hit));
        free.delete(hit);
      } else pending.push(r);
    }
    for (const r of pending) {
      let pick: QulacRow | undefined;
      let s = -1;
      for (const q of free) {
        const v = similarity(q.question, r.question) * 2 + similarity(q.answer, r.answer);
        if (v > s) [pick, s] = [q, v];
      }
      if (!pick)
        throw new InputError(
          file,
          {},
          `a Qulac question for ${r.question_id} in facet ${facet} of topic ${topic}`,
          "none left",
        );
      out.set(r, num(pick));
      free.delete(pick);
    }
  }
  return { numbers: out, facets: facetOf };
}

/** How ClariQ rows join Qulac's: per ClariQ facet its Qulac facet, per row its Qulac question number. */
export interface QulacJoin {
  /** `topic\tF0123` → Qulac's facet number within the topic. */
  facets: Map<string, number>;
  /** A ClariQ row (Q00001 left out) → Qulac's question number. */
  numbers: Map<ClariqRow, number>;
}

/**
 * The join {@link planTopics} numbers items by (topics <= `qulacTopicMax` with Qulac rows): one
 * Qulac facet per ClariQ facet, one Qulac question per row, each used once. Unique by
 * construction, so a row's Qulac id is `topic-facet-number`, never another facet's row that
 * happens to share the question and answer. Topics the join cannot cover are left out.
 */
export function qulacJoin(
  file: string,
  rows: readonly ClariqRow[],
  qulac: readonly QulacRow[],
  qulacTopicMax = 200,
): QulacJoin {
  const join: QulacJoin = { facets: new Map(), numbers: new Map() };
  const byTopic = new Map<number, Map<string, ClariqRow[]>>();
  for (const r of rows) {
    if (r.topic_id > qulacTopicMax || r.question_id === NO_QUESTION) continue;
    let t = byTopic.get(r.topic_id);
    if (!t) {
      t = new Map();
      byTopic.set(r.topic_id, t);
    }
    const l = t.get(r.facet_id);
    if (l) l.push(r);
    else t.set(r.facet_id, [r]);
  }
  const qulacByTopic = new Map<number, QulacRow[]>();
  for (const r of qulac) {
    const l = qulacByTopic.get(r.topic_id);
    if (l) l.push(r);
    else qulacByTopic.set(r.topic_id, [r]);
  }
  for (const [topic, facets] of byTopic) {
    const q = qulacByTopic.get(topic);
    if (!q) continue;
    let got: ReturnType<typeof qulacNumbers>;
    try {
      got = qulacNumbers(file, topic, facets, q);
    } catch (e) {
      if (e instanceof InputError) continue;
      throw e;
    }
    for (const [f, n] of got.facets) join.facets.set(`${topic}\t${f}`, n);
    for (const [r, n] of got.numbers) join.numbers.set(r, n);
  }
  return join;
}

/**
 * Plans the topics of ClariQ rows: facets in id order; items of topics <= 200 ordered by Qulac's
 * question number (duplicate texts stay separate items), of topics > 200 by question id (a
 * question id repeated within a facet counts once). Q00001 is never an item. Every facet is
 * paired with every item.
 */
export function planTopics(
  file: string,
  rows: readonly ClariqRow[],
  qulac?: readonly QulacRow[],
  options: { qulacTopicMax?: number; skip?: ReadonlySet<number> } = {},
): TopicPlan[] {
  const qulacTopicMax = options.qulacTopicMax ?? 200;
  const byTopic = new Map<number, ClariqRow[]>();
  for (const r of rows) {
    const l = byTopic.get(r.topic_id);
    if (l) l.push(r);
    else byTopic.set(r.topic_id, [r]);
  }
  const qulacByTopic = new Map<number, QulacRow[]>();
  for (const r of qulac ?? []) {
    const l = qulacByTopic.get(r.topic_id);
    if (l) l.push(r);
    else qulacByTopic.set(r.topic_id, [r]);
  }
  const plans: TopicPlan[] = [];
  for (const [topic, trows] of [...byTopic].sort((a, b) => a[0] - b[0])) {
    if (options.skip?.has(topic)) continue;
    const facets = new Map<string, ClariqRow[]>();
    for (const r of trows) {
      if (r.question_id === NO_QUESTION) continue;
      const l = facets.get(r.facet_id);
      if (l) l.push(r);
      else facets.set(r.facet_id, [r]);
    }
    const facetIds = [...new Set(trows.map((r) => r.facet_id))].sort();
    const facetRows = facetIds.map((f): [string, ClariqRow[]] => {
      const l = facets.get(f);
      if (!l) throw new InputError(file, {}, `questions for facet ${f} of topic ${topic}`, "none");
      return [f, l];
    });
    let keyOf: (r: ClariqRow) => string | number;
    const topicQulac = topic <= qulacTopicMax ? qulacByTopic.get(topic) : undefined;
    if (topicQulac) {
      const nums = qulacNumbers(file, topic, facets, topicQulac).numbers;
      // qulacNumbers numbers every row of `facets` or throws.
      keyOf = (r) => {
        const k = nums.get(r);
        if (k === undefined) throw new Error(`${r.question_id} of topic ${topic}: no Qulac number`);
        return k;
      };
    } else {
      if (topic <= qulacTopicMax && qulac)
        throw new InputError(file, {}, `Qulac rows for topic ${topic}`, "none");
      keyOf = (r) => r.question_id;
    }
    // Items: the keys every facet shares, in order.
    const perFacet = facetRows.map(([f, frows]) => {
      const m = new Map<string | number, ClariqRow>();
      const texts = new Map<string, string>();
      for (const r of frows) {
        // A question id stands for one question: the same id with another text is a broken file.
        const t = texts.get(r.question_id);
        if (t !== undefined && t !== r.question) {
          throw new InputError(
            file,
            {},
            `one question text per question id (${r.question_id} in facet ${f} of topic ${topic})`,
            `${JSON.stringify(t)} and ${JSON.stringify(r.question)}`,
          );
        }
        texts.set(r.question_id, r.question);
        if (!m.has(keyOf(r))) m.set(keyOf(r), r);
      }
      return m;
    });
    // Items: every key any facet has, in order. A facet without a row for an item (ClariQ topic
    // 207's F0443 lacks Q01676) still gets the item, with the question from another facet and no answer.
    // The first facet's row of each key (the fallback), the items sorted by key.
    const anyRow = new Map<string | number, ClariqRow>();
    for (const m of perFacet) for (const [k, r] of m) if (!anyRow.has(k)) anyRow.set(k, r);
    const items = [...anyRow].sort(([a], [b]) =>
      typeof a === "number" && typeof b === "number"
        ? a - b
        : String(a) < String(b)
          ? -1
          : String(a) > String(b)
            ? 1
            : 0,
    );
    const [first] = trows;
    if (!first) throw new Error(`topic ${topic}: no rows`); // byTopic's lists are never empty
    plans.push({
      topic_id: topic,
      initial_request: first.initial_request,
      facets: facetIds,
      answers: perFacet.map((m) =>
        items.map(([k, o]) => {
          const r = m.get(k);
          if (r) return { question_id: r.question_id, question: r.question, answer: r.answer };
          return { question_id: o.question_id, question: o.question, answer: "" };
        }),
      ),
    });
  }
  return plans;
}
