// A TREC run back to a 2025 run skeleton: the references of each turn, one empty response to fill.
import type { Ikat25Turn, RunEntry } from "@convkit/formats";
import { describeFound, InputError } from "@convkit/io";
import { trecOrder } from "@convkit/trec-eval";

/** The `metadata` every line of the skeleton carries, and where the TREC lines came from. */
export interface Ikat25SkeletonOptions {
  team_id: string;
  /** Default: the tag of the first TREC line. */
  run_id?: string;
  run_type: string;
  /** The TREC file's name, for errors. */
  file?: string;
}

/** The most references a 2025 turn may have (the official validator's CITATION_LIMIT). */
export const IKAT25_MAX_REFERENCES = 1000;

/**
 * One 2025 run line per turn of the TREC lines (turns in first-seen order): its references the
 * turn's passages in trec_eval's order (score descending, then docno descending), the first 1,000,
 * with their scores; one response with an empty text, no citations and no PTKB statements (the
 * validator passes it; a generator fills it in). The official generate_run.py ranks the references
 * back in the same order, so the TREC lines it writes score as these do. A passage twice in a turn
 * is an error, as in trec_eval (a JSON object holds each key once).
 */
export function trecToIkat25(lines: readonly RunEntry[], o: Ikat25SkeletonOptions): Ikat25Turn[] {
  const byTurn = new Map<string, RunEntry[]>();
  for (const l of lines) {
    const t = byTurn.get(l.qid);
    if (t) t.push(l);
    else byTurn.set(l.qid, [l]);
  }
  const metadata = { team_id: o.team_id, run_id: o.run_id ?? lines[0]?.tag ?? "run", run_type: o.run_type };
  return [...byTurn].map(([turn_id, ls]) => {
    const seen = new Set<string>();
    for (const l of ls) {
      if (seen.has(l.docno))
        throw new InputError(
          o.file ?? "<run>",
          {},
          `each document once per topic (topic ${turn_id})`,
          `duplicate docs ${describeFound(l.docno)}`,
        );
      seen.add(l.docno);
      // JSON has no NaN or infinity (Python would write them, and its own json.loads read them back).
      if (!Number.isFinite(l.score))
        throw new InputError(
          o.file ?? "<run>",
          {},
          `a finite score (topic ${turn_id}, ${l.docno})`,
          String(l.score),
        );
    }
    const references = [...ls]
      .sort(trecOrder)
      .slice(0, IKAT25_MAX_REFERENCES)
      .map((l) => ({ id: l.docno, score: l.score }));
    return {
      metadata: { ...metadata },
      turn_id,
      references,
      responses: [{ text: "", citations: [], ptkb_provenance: [] }],
    };
  });
}
