// iKAT runs ⇄ TREC run lines, as the official generate_run.py turns submissions into trec_eval input.
import type { IkatRun, RunEntry } from "@convkit/formats";
import { trecOrder } from "@convkit/io";

/**
 * TREC lines of a submission, per turn as `generate_run.py` makes them: the passages of every
 * response in response order, each passage once (first seen), scored `score · 1/(response.rank + 1)`,
 * ranked by position from 1; the tag is the run name.
 */
export function runToTrec(run: IkatRun): RunEntry[] {
  const out: RunEntry[] = [];
  for (const turn of run.turns) {
    const seen = new Set<string>();
    let rank = 0;
    for (const r of turn.responses) {
      for (const p of r.passage_provenance) {
        if (seen.has(p.id)) continue;
        seen.add(p.id);
        out.push({
          qid: turn.turn_id,
          q0: "Q0",
          docno: p.id,
          rank: ++rank,
          score: (p.score ?? 0) * (1 / (r.rank + 1)),
          tag: run.run_name,
        });
      }
    }
  }
  return out;
}

/**
 * A submission from TREC lines: per turn (in first-seen order) one response of rank 1 with an
 * empty text and no PTKB statements, its provenance the turn's passages in trec_eval's order
 * (score descending, docno descending), at most 1,000, the first `used` ones marked used.
 */
export function trecToRun(
  lines: readonly RunEntry[],
  o: { runName?: string; runType?: string; evalResponse?: boolean; used?: number } = {},
): IkatRun & { eval_response: boolean } {
  const byTurn = new Map<string, RunEntry[]>();
  for (const l of lines) {
    const t = byTurn.get(l.qid) ?? [];
    t.push(l);
    byTurn.set(l.qid, t);
  }
  const used = o.used ?? 5;
  return {
    run_name: o.runName ?? lines[0]?.tag ?? "run",
    run_type: o.runType ?? "automatic",
    eval_response: o.evalResponse ?? false,
    turns: [...byTurn].map(([turn_id, ls]) => ({
      turn_id,
      responses: [
        {
          rank: 1,
          text: "",
          ptkb_provenance: [],
          passage_provenance: [...ls]
            .sort(trecOrder)
            .slice(0, 1000)
            .map((l, i) => ({ id: l.docno, score: l.score, used: i < used })),
        },
      ],
    })),
  };
}
