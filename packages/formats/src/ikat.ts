// TREC iKAT: topics (2023-2025 layouts), run submissions, passage JSONL and the passage hash TSV.
import {
  describeFound,
  InputError,
  pythonJsonString,
  readText,
  type WriteOptions,
  writeAtomic,
} from "@convkit/io";
import { writeLines } from "./lines.js";
import { expectWidth, intField } from "./fields.js";
import { parseJsonText } from "./json-text.js";
import { readJsonl } from "./jsonl.js";
import type { IkatRun, IkatTopic, IkatTopicTurn, PassageHash, PassageRecord } from "./records.js";
import { displayName, mapRows, rowsOf } from "./table.js";

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Reads an iKAT topics file of any year into the normalized {@link IkatTopic} shape. */
export async function readIkatTopics(path: string): Promise<IkatTopic[]> {
  const file = displayName(path);
  const doc = parseJsonText(file, await readText(path));
  if (!Array.isArray(doc)) throw new InputError(file, { line: 1 }, "a JSON array of topics", typeof doc);
  return doc.map((t, i) => normalizeIkatTopic(file, t, i));
}

/** One topic object of any year into the normalized shape (ptkb object or list; turns or responses). */
export function normalizeIkatTopic(file: string, t: unknown, i: number): IkatTopic {
  const where = `topic ${i}`;
  if (!isObj(t)) throw new InputError(file, {}, `an object for ${where}`, typeof t);
  const number = t.number;
  if (typeof number !== "string" && typeof number !== "number")
    throw new InputError(file, {}, `a "number" in ${where}`, describeFound(String(number)));
  const rawPtkb = t.ptkb ?? {};
  const ptkb = Array.isArray(rawPtkb)
    ? rawPtkb.map((text, k) => ({ id: String(k + 1), text: String(text) }))
    : isObj(rawPtkb)
      ? Object.entries(rawPtkb).map(([id, text]) => ({ id, text: String(text) }))
      : [];
  const rawTurns = (t.turns ?? t.responses) as unknown;
  if (!Array.isArray(rawTurns))
    throw new InputError(file, {}, `"turns" or "responses" in topic ${number}`, "none");
  const turns: IkatTopicTurn[] = rawTurns.map((u: Obj, k: number) => {
    if (!isObj(u) || typeof u.turn_id !== "number")
      throw new InputError(
        file,
        {},
        `a turn with an int turn_id in topic ${number} turn ${k}`,
        JSON.stringify(u).slice(0, 40),
      );
    return {
      turn_id: u.turn_id,
      utterance: String(u.utterance ?? u.user_utterance ?? ""),
      resolved_utterance: String(u.resolved_utterance ?? ""),
      response: String(u.response ?? ""),
      ptkb_provenance: (u.ptkb_provenance ?? u.relevant_ptkbs ?? []) as (string | number)[],
      response_provenance: (u.response_provenance ?? u.citations ?? []) as unknown[],
    };
  });
  return { number: String(number), title: String(t.title ?? ""), ptkb, turns };
}

/** Reads an iKAT run submission JSON; structure is checked lightly here (the validator checks rules). */
export async function readIkatRun(path: string): Promise<IkatRun> {
  const file = displayName(path);
  const doc = parseJsonText(file, await readText(path));
  if (!isObj(doc) || !Array.isArray(doc.turns))
    throw new InputError(
      file,
      { line: 1 },
      'a run object with a "turns" list',
      Array.isArray(doc) ? "an array" : typeof doc,
    );
  return doc as unknown as IkatRun;
}

/** Writes a run submission JSON (indent 4, as the organizers' samples). */
export async function writeIkatRun(target: string, run: IkatRun, options?: WriteOptions): Promise<void> {
  await writeAtomic(target, (sink) => sink.write(`${JSON.stringify(run, null, 4)}\n`), options);
}

/** Passage JSONL lines `{"id", "contents", "url"}`. */
export function readPassages(path: string): AsyncIterable<PassageRecord[]> {
  const file = displayName(path);
  return readJsonl<PassageRecord>(path, (v, line) => {
    if (!isObj(v) || typeof v.id !== "string" || typeof v.contents !== "string") {
      throw new InputError(
        file,
        { line },
        'an object with string "id" and "contents"',
        describeFound(JSON.stringify(v)),
      );
    }
    return v as unknown as PassageRecord;
  });
}

/** One passage line exactly as Python's `json.dumps` writes `{"id", "contents", "url"}`. */
export function formatPassageLine(p: PassageRecord): string {
  const url = p.url === undefined ? "" : `, "url": ${pythonJsonString(p.url)}`;
  return `{"id": ${pythonJsonString(p.id)}, "contents": ${pythonJsonString(p.contents)}${url}}`;
}

export function writePassages(
  target: string,
  batches: AsyncIterable<readonly PassageRecord[]> | Iterable<readonly PassageRecord[]>,
  options?: WriteOptions,
): Promise<number> {
  return writeLines(target, batches, formatPassageLine, options);
}

/** The passage hash TSV `doc_id<TAB>passage_no<TAB>md5` (no header). */
export function readPassageHashes(path: string): AsyncIterable<PassageHash[]> {
  const file = displayName(path);
  return mapRows(rowsOf(path, { quoting: false }), (row) => {
    expectWidth(file, row, 3);
    const md5 = row.fields[2]!;
    if (!/^[0-9a-f]{32}$/.test(md5))
      throw new InputError(file, { line: row.line }, "an md5 hex digest", describeFound(md5));
    return { doc_id: row.fields[0]!, passage_no: intField(file, row, 1, "an integer passage number"), md5 };
  });
}

export function writePassageHashes(
  target: string,
  batches: AsyncIterable<readonly PassageHash[]> | Iterable<readonly PassageHash[]>,
  options?: WriteOptions,
): Promise<number> {
  return writeLines(target, batches, (h) => `${h.doc_id}\t${h.passage_no}\t${h.md5}`, options);
}
