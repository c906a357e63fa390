// Qulac's `topic-facet-question` ids of ClariQ rows and synthetic items, by gen:synthetic's own join.
import type { ClariqRow, QulacRow } from "@convkit/formats";
import { NO_QUESTION, qulacJoin } from "@convkit/synthetic-plan";

/**
 * Qulac ids for ClariQ topics <= 200, from the join the synthetic planner numbers items by: one
 * Qulac facet per ClariQ facet and one Qulac question per row. Matching question and answer
 * texts instead is not unique (the same question and answer occur under several facets), which
 * put 194 rows under another facet's id.
 */
export class QulacIds {
  private readonly byRow = new Map<ClariqRow, string>();
  /** `topic\tF0123` → Qulac's facet number. */
  private readonly facets: Map<string, number>;
  /** Per topic, its items' Qulac question numbers in item order (the planner's keys). */
  private readonly items = new Map<number, number[]>();
  /** Per `topic\tfacet\tquestion\tanswer`, the Qulac ids of those rows (a lookup when no item is known). */
  private readonly byText = new Map<string, string[]>();
  readonly known: ReadonlySet<string>;

  constructor(rows: readonly ClariqRow[], qulac: readonly QulacRow[]) {
    const join = qulacJoin("qulac.json", rows, qulac);
    this.facets = join.facets;
    this.known = new Set(qulac.map((r) => r.topic_facet_question_id));
    const numbers = new Map<number, Set<number>>();
    for (const r of rows) {
      const f = this.facets.get(`${r.topic_id}\t${r.facet_id}`);
      if (f === undefined) continue;
      const n = r.question_id === NO_QUESTION ? "X" : join.numbers.get(r);
      if (n === undefined) continue;
      const id = `${r.topic_id}-${f}-${n}`;
      if (!this.known.has(id)) continue;
      this.byRow.set(r, id);
      if (typeof n === "number") {
        const s = numbers.get(r.topic_id) ?? new Set();
        numbers.set(r.topic_id, s.add(n));
        const k = textKey(r.topic_id, r.facet_id, r.question, r.answer);
        this.byText.set(k, [...(this.byText.get(k) ?? []), id]);
      }
    }
    for (const [t, s] of numbers)
      this.items.set(
        t,
        [...s].sort((a, b) => a - b),
      );
  }

  /** The id of a ClariQ row (its own join, never another row's). */
  ofRow(r: ClariqRow): string | undefined {
    return this.byRow.get(r);
  }

  /** Qulac's facet number of a ClariQ facet. */
  facetOf(topic: number, facet: string): number | undefined {
    return this.facets.get(`${topic}\t${facet}`);
  }

  /**
   * The id of item `item` (the planner's item index) under a facet: Qulac's row for the facet and
   * that question number, when Qulac has one (a facet lacking the question has none).
   */
  ofItem(topic: number, facet: string, item: number): string | undefined {
    const f = this.facetOf(topic, facet);
    const n = this.items.get(topic)?.[item];
    if (f === undefined || n === undefined) return undefined;
    const id = `${topic}-${f}-${n}`;
    return this.known.has(id) ? id : undefined;
  }

  /** The id of a (question, answer) under a facet when exactly one row of that facet has them. */
  ofText(topic: number, facet: string, question: string, answer: string): string | undefined {
    const ids = this.byText.get(textKey(topic, facet, question, answer));
    return ids?.length === 1 ? ids[0] : undefined;
  }
}

const textKey = (topic: number, facet: string, q: string, a: string) => `${topic}\t${facet}\t${q}\t${a}`;
