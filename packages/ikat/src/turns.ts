// iKAT topics (2023–2025 layouts) flattened into one record per turn, with the history before it.
import type { IkatTopic } from "@convkit/formats";
import { InputError } from "@convkit/io";

/** One earlier turn of the conversation, as the user and the system saw it. */
export interface IkatHistoryTurn {
  turn_id: string;
  utterance: string;
  resolved_utterance: string;
  response: string;
}

/** A turn record: ids, texts, PTKB, provenance, and the conversation up to (never after) the turn. */
export interface IkatTurnRecord {
  /** `topic_turn`: `9-1_3` (2023/2025: topic `9`, subtree `1`), `0_3` (2024). */
  turn_id: string;
  topic: string;
  title: string;
  turn: number;
  utterance: string;
  resolved_utterance: string;
  response: string;
  /** The topic's PTKB statements by id (2025's list numbered from 1). */
  ptkb: Record<string, string>;
  ptkb_provenance: string[];
  response_provenance: unknown[];
  /** 2025: the relevant PTKB statements' texts, as the topics give them (`ptkb_provenance`: their ids). */
  relevant_ptkbs?: string[];
  /** 2025: the gold response's passage ids. */
  citations?: string[];
  history: IkatHistoryTurn[];
}

/** Flattens topics into turn records, in file order. */
export function flattenTopics(topics: readonly IkatTopic[]): IkatTurnRecord[] {
  const out: IkatTurnRecord[] = [];
  for (const t of topics) {
    const ptkb = Object.fromEntries(t.ptkb.map((p) => [p.id, p.text]));
    const history: IkatHistoryTurn[] = [];
    for (const u of t.turns) {
      const turn_id = `${t.number}_${u.turn_id}`;
      const record: IkatTurnRecord = {
        turn_id,
        topic: t.number,
        title: t.title,
        turn: u.turn_id,
        utterance: u.utterance,
        resolved_utterance: u.resolved_utterance,
        response: u.response,
        ptkb,
        ptkb_provenance: u.ptkb_provenance.map(String),
        response_provenance: u.response_provenance,
        history: [...history],
      };
      if (u.relevant_ptkbs !== undefined) record.relevant_ptkbs = u.relevant_ptkbs;
      if (u.citations !== undefined) record.citations = u.citations;
      out.push(record);
      history.push({
        turn_id,
        utterance: u.utterance,
        resolved_utterance: u.resolved_utterance,
        response: u.response,
      });
    }
  }
  return out;
}

/**
 * A turn record as a row of IKAT_TURN_SCHEMA: `ptkb` as `{id, text}` pairs (a Parquet column has
 * one type; an object's keys are data), 2025's lists empty for earlier years. `file` names the
 * topics in the message about a provenance entry that is not a passage id.
 */
export function ikatTurnRow(file: string, r: IkatTurnRecord): Record<string, unknown> {
  for (const p of r.response_provenance)
    if (typeof p !== "string")
      throw new InputError(
        file,
        {},
        `passage ids (strings) in response_provenance of turn ${r.turn_id}`,
        JSON.stringify(p) ?? String(p),
      );
  return {
    ...r,
    ptkb: Object.entries(r.ptkb).map(([id, text]) => ({ id, text })),
    relevant_ptkbs: r.relevant_ptkbs ?? [],
    citations: r.citations ?? [],
  };
}
