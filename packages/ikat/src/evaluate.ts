// PTKB statement ranking and passage ranking evaluation of iKAT runs, with trec_eval semantics.
import type { IkatRun, IkatTopic } from "@convkit/formats";
import { averagePrecision, judgeRanking, precisionAt, type Scored } from "@convkit/trec-eval";

/** Per-turn PTKB scores and their means over the judged turns. */
export interface PtkbEvaluation {
  perTurn: { turn_id: string; values: Record<string, number> }[];
  mean: Record<string, number>;
}

/** The PTKB measures: set precision and recall, P@1/3/5 and AP. */
export const PTKB_MEASURES = ["P", "R", "P@1", "P@3", "P@5", "MAP"] as const;

/**
 * PTKB statement ranking of a run's first response per turn against the topics' `ptkb_provenance`
 * (the relevant statements). The ranking is the run's list (2023: ordered by score, ties by
 * position; later years: the list order). Turns with no relevant statement are left out, as
 * trec_eval leaves out topics without relevant documents; a judged turn the run lacks scores 0.
 */
export function evaluatePtkb(run: IkatRun, topics: readonly IkatTopic[]): PtkbEvaluation {
  const rel = new Map<string, Set<string>>();
  for (const t of topics)
    for (const u of t.turns) {
      const ids = u.ptkb_provenance.map(String);
      if (ids.length > 0) rel.set(`${t.number}_${u.turn_id}`, new Set(ids));
    }
  const ranked = new Map<string, string[]>();
  for (const turn of run.turns) {
    const list = turn.responses[0]?.ptkb_provenance ?? [];
    const items = list.map((p, i) =>
      typeof p === "object" ? { id: p.id, score: p.score ?? Number.NaN, i } : { id: String(p), score: -i, i },
    );
    items.sort((a, b) => b.score - a.score || a.i - b.i);
    ranked.set(
      turn.turn_id,
      items.map((x) => x.id),
    );
  }
  const perTurn: PtkbEvaluation["perTurn"] = [];
  for (const [turn_id, relevant] of rel) {
    const ids = ranked.get(turn_id) ?? [];
    const qrels = new Map([...relevant].map((id) => [id, 1]));
    // Descending scores in list order, so trec_eval's sort keeps the run's order.
    const results: Scored[] = ids.map((docno, i) => ({ docno, score: ids.length - i }));
    const r = judgeRanking(results, qrels);
    const hits = ids.filter((id) => relevant.has(id)).length;
    perTurn.push({
      turn_id,
      values: {
        P: ids.length ? hits / ids.length : 0,
        R: hits / relevant.size,
        "P@1": precisionAt(r, 1),
        "P@3": precisionAt(r, 3),
        "P@5": precisionAt(r, 5),
        MAP: averagePrecision(r),
      },
    });
  }
  const mean = Object.fromEntries(
    PTKB_MEASURES.map((m) => [
      m,
      perTurn.length ? perTurn.reduce((a, t) => a + t.values[m]!, 0) / perTurn.length : 0,
    ]),
  );
  return { perTurn, mean };
}
