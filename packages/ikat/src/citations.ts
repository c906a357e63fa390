// convkit's own measures of a 2025 run's citations and references against passage qrels
// (definitions in the README, "Citations checked against judgments").
import type { Ikat25Turn } from "@convkit/formats";
import type { TopicQrels } from "@convkit/trec-eval";

/** The measures, in output order; `num_*` are counts (summed over turns), the others shares (averaged). */
export const CITATION_MEASURES = [
  "num_cited",
  "cit_rel",
  "cit_rel_2",
  "num_resp",
  "resp_supported",
  "num_rel",
  "num_rel_ref",
  "ref_recall",
] as const;

export type CitationMeasure = (typeof CITATION_MEASURES)[number];

/** Per-turn values (turns in both the run and the qrels, in the run's order) and the summary. */
export interface CitationEvaluation {
  perTurn: { turn_id: string; values: Record<CitationMeasure, number> }[];
  all: Record<CitationMeasure, number>;
}

/** Whether a measure is a count (printed as an integer, summed in `all`, as trec_eval's num_*). */
export function isCountMeasure(m: CitationMeasure): boolean {
  return m.startsWith("num_");
}

/**
 * Scores each turn's citations and references against the qrels (`relevanceLevel`: the lowest
 * grade that counts as relevant, trec_eval's -l; `cit_rel_2` is always grade ≥ 2):
 * - `num_cited`: distinct passages the turn's responses cite;
 * - `cit_rel` / `cit_rel_2`: the share of them judged ≥ level / ≥ 2 (0 when nothing is cited;
 *   an unjudged passage counts as not relevant);
 * - `num_resp`, `resp_supported`: responses, and the share citing at least one passage judged
 *   ≥ level (0 when there are none);
 * - `num_rel`, `num_rel_ref`, `ref_recall`: passages judged ≥ level, those among the turn's
 *   references (all of them, not only the cited), and their share of the relevant (0 when none).
 * A turn repeated in the run is scored on its lines together. Turns without qrels are left out,
 * as trec_eval leaves out topics without judgments.
 */
export function evaluateCitations(
  turns: Iterable<Ikat25Turn>,
  qrels: ReadonlyMap<string, TopicQrels>,
  relevanceLevel = 1,
): CitationEvaluation {
  const byTurn = new Map<string, { cited: Set<string>; refs: Set<string>; responses: Set<string>[] }>();
  for (const t of turns) {
    if (!qrels.has(t.turn_id)) continue;
    let e = byTurn.get(t.turn_id);
    if (!e) {
      e = { cited: new Set(), refs: new Set(), responses: [] };
      byTurn.set(t.turn_id, e);
    }
    for (const r of t.references) e.refs.add(r.id);
    for (const r of t.responses) {
      const ids = new Set(r.citations.map((c) => c.id));
      for (const id of ids) e.cited.add(id);
      e.responses.push(ids);
    }
  }
  const share = (n: number, d: number) => (d > 0 ? n / d : 0);
  const perTurn: CitationEvaluation["perTurn"] = [];
  for (const [turn_id, e] of byTurn) {
    const q = qrels.get(turn_id)!;
    const grade = (id: string) => q.get(id) ?? Number.NEGATIVE_INFINITY;
    const cited = [...e.cited];
    let numRel = 0;
    for (const g of q.values()) if (g >= relevanceLevel) numRel++;
    const relRef = [...e.refs].filter((id) => grade(id) >= relevanceLevel).length;
    perTurn.push({
      turn_id,
      values: {
        num_cited: cited.length,
        cit_rel: share(cited.filter((id) => grade(id) >= relevanceLevel).length, cited.length),
        cit_rel_2: share(cited.filter((id) => grade(id) >= 2).length, cited.length),
        num_resp: e.responses.length,
        resp_supported: share(
          e.responses.filter((ids) => [...ids].some((id) => grade(id) >= relevanceLevel)).length,
          e.responses.length,
        ),
        num_rel: numRel,
        num_rel_ref: relRef,
        ref_recall: share(relRef, numRel),
      },
    });
  }
  const all: Record<CitationMeasure, number> = {
    num_cited: 0,
    cit_rel: 0,
    cit_rel_2: 0,
    num_resp: 0,
    resp_supported: 0,
    num_rel: 0,
    num_rel_ref: 0,
    ref_recall: 0,
  };
  for (const m of CITATION_MEASURES) {
    const sum = perTurn.reduce((a, t) => a + t.values[m], 0);
    all[m] = isCountMeasure(m) ? sum : share(sum, perTurn.length);
  }
  return { perTurn, all };
}
