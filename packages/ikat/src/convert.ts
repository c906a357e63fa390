// iKAT runs ⇄ TREC run lines, as the official generate_run.py turns submissions into trec_eval input.
import { type IkatRun, type PyJson, pyJsonLoadBytes, type RunEntry } from "@convkit/formats";
import { formatPyFloat } from "@convkit/pycompat";
import { trecOrder } from "@convkit/trec-eval";
import { ProtoParseError, type ProtoRun, parseProtoRun } from "./protobuf-json.js";

/** What {@link runToTrec} reads of a run: an {@link IkatRun} or a {@link ProtoRun}. */
export interface TrecSource {
  run_name: string;
  turns: readonly {
    turn_id: string;
    responses: readonly { rank: number; passage_provenance: readonly { id: string; score?: number }[] }[];
  }[];
}

/**
 * TREC lines of a submission, per turn as `generate_run.py` makes them: the passages of every
 * response in response order, each passage once (first seen, never sorted), scored
 * `1/(response.rank + 1) · score` with the score a protobuf float (32 bits) before and after,
 * ranked by position from 1; the tag is the run name.
 */
export function runToTrec(run: TrecSource): RunEntry[] {
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
          score: Math.fround((1 / (r.rank + 1)) * Math.fround(p.score ?? 0)),
          tag: run.run_name,
        });
      }
    }
  }
  return out;
}

/**
 * The bytes `generate_run.py` (2023 and 2024) writes for a run: {@link runToTrec}'s lines as
 * `turn\tQ0\tid\trank\tscore\trun_name`, the score as Python prints the float32's value. A
 * response of rank -1 fails there (division by zero): an error here too.
 */
export function trecRunText(run: ProtoRun): string {
  for (const t of run.turns) {
    // The division happens for each passage seen first: a rank -1 response with only repeats passes.
    const seen = new Set<string>();
    for (const r of t.responses)
      for (const p of r.passage_provenance) {
        if (!seen.has(p.id) && r.rank === -1)
          throw new ProtoParseError(
            `turn ${t.turn_id}: a response of rank -1 (generate_run.py divides by rank + 1: ZeroDivisionError)`,
            r.line,
          );
        seen.add(p.id);
      }
  }
  let out = "";
  for (const l of runToTrec(run))
    out += `${l.qid}\tQ0\t${l.docno}\t${l.rank}\t${formatPyFloat(l.score)}\t${l.tag}\n`;
  return out;
}

/**
 * A run file read as `generate_run.py` reads it (json.load, then ParseDict with the year's
 * run.proto). Without a year: 2024's proto, else 2023's (both give the same TREC lines where both
 * accept the run); where neither does, the error of the one the run looks written for.
 */
export function readProtoRun(bytes: Uint8Array, year?: 2023 | 2024): ProtoRun {
  const doc = pyJsonLoadBytes(bytes);
  if (year) return parseProtoRun(doc, year);
  try {
    return parseProtoRun(doc, 2024);
  } catch (e2024) {
    try {
      return parseProtoRun(doc, 2023);
    } catch (e2023) {
      throw looks2023(doc.value) ? e2023 : e2024;
    }
  }
}

/** Whether a response lists PTKB provenance as objects (2023's layout). */
function looks2023(doc: PyJson): boolean {
  const turns = doc instanceof Map ? doc.get("turns") : undefined;
  if (!Array.isArray(turns)) return false;
  for (const t of turns) {
    const rs = t instanceof Map ? t.get("responses") : undefined;
    if (!Array.isArray(rs)) continue;
    for (const r of rs) {
      const p = r instanceof Map ? r.get("ptkb_provenance") : undefined;
      if (Array.isArray(p) && p.length > 0) return p[0] instanceof Map;
    }
  }
  return false;
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
