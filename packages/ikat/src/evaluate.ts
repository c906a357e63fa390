// PTKB statement ranking and passage ranking evaluation of iKAT runs, with trec_eval semantics.
import { type Ikat25Turn, type IkatRun, type IkatTopic, rankIkat25References } from "@convkit/formats";
import { formatFixed } from "@convkit/pycompat";
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
 * position; 2024: the list order), scored by {@link evaluatePtkbRankings}.
 */
export function evaluatePtkb(run: IkatRun, topics: readonly IkatTopic[]): PtkbEvaluation {
  const ranked = new Map<string, readonly string[]>();
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
  return evaluatePtkbRankings(ranked, topics);
}

/**
 * A 2025 run's PTKB rankings: per turn, the ids of every response's `ptkb_provenance`, in order of
 * first mention. A 2025 turn's responses are the parts of one answer (the 250-token limit is on
 * their sum), so the turn's PTKB provenance is what all of them used; a repeated turn adds to it.
 */
export function ikat25PtkbRankings(turns: Iterable<Ikat25Turn>): Map<string, readonly string[]> {
  const out = new Map<string, string[]>();
  const seen = new Map<string, Set<string>>();
  for (const t of turns) {
    const ids = out.get(t.turn_id) ?? [];
    const known = seen.get(t.turn_id) ?? new Set();
    for (const r of t.responses)
      for (const id of r.ptkb_provenance)
        if (!known.has(id)) {
          known.add(id);
          ids.push(id);
        }
    out.set(t.turn_id, ids);
    seen.set(t.turn_id, known);
  }
  return out;
}

/**
 * A 2025 run's passage rankings as trec_eval reads the TREC file the official generate_run.py
 * writes for it: every reference of the turn, its score printed `%.6f` (so scores equal to 6
 * places tie, and trec_eval orders those by docno); a repeated turn's references are added (a
 * passage seen twice is then trec_eval's duplicate error). A turn without references has no line
 * there, so no ranking here: trec_eval does not score it.
 */
export function ikat25PassageRankings(turns: Iterable<Ikat25Turn>): Map<string, Scored[]> {
  const out = new Map<string, Scored[]>();
  for (const t of turns) {
    if (t.references.length === 0) continue;
    const list = out.get(t.turn_id) ?? [];
    // In generate_run.py's order: trec_eval sorts again, but a NaN score compares as no score
    // does, and where it ends up depends on the order the sort starts from. Python prints nan,
    // inf and -inf as such, and trec_eval's atof reads them back as they were.
    for (const r of rankIkat25References(t.references))
      list.push({ docno: r.id, score: Number.isFinite(r.score) ? Number(formatFixed(r.score, 6)) : r.score });
    out.set(t.turn_id, list);
  }
  return out;
}

/**
 * PTKB rankings (turn id → statement ids, best first) against the topics' relevant statements
 * (`ptkb_provenance`; for 2025 the ids of `relevant_ptkbs`). Turns with no relevant statement are
 * left out, as trec_eval leaves out topics without relevant documents; a judged turn the run lacks
 * scores 0.
 */
export function evaluatePtkbRankings(
  ranked: ReadonlyMap<string, readonly string[]>,
  topics: readonly IkatTopic[],
): PtkbEvaluation {
  const rel = new Map<string, Set<string>>();
  for (const t of topics)
    for (const u of t.turns) {
      const ids = u.ptkb_provenance.map(String);
      if (ids.length > 0) rel.set(`${t.number}_${u.turn_id}`, new Set(ids));
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
