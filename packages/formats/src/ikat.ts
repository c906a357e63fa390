// TREC iKAT: topics (2023-2025 layouts), run submissions, passage JSONL and the passage hash TSV.
import { describeFound, InputError, readText, type WriteOptions, writeAtomic } from "@convkit/io";
import { Fields, isJsonObject, type Mismatch, parseJsonText } from "@convkit/json";
import { pythonJsonString } from "@convkit/pycompat";
import { expectWidth, intField, textField } from "./fields.js";
import { readJsonl } from "./jsonl.js";
import { writeLines } from "./lines.js";
import { type PyLiteral, PyLiteralError, parsePyLiteral } from "./py-literal.js";
import type {
  IkatProvenance,
  IkatPtkbProvenance,
  IkatResponse,
  IkatRun,
  IkatTopic,
  IkatTopicTurn,
  PassageHash,
  PassageRecord,
} from "./records.js";
import { displayName, mapRows, rowsOf } from "./table.js";

const isObj = isJsonObject;

/** Reads an iKAT topics file of any year into the normalized {@link IkatTopic} shape. */
export async function readIkatTopics(path: string): Promise<IkatTopic[]> {
  const file = displayName(path);
  const doc = parseJsonText(file, await readText(path));
  if (!Array.isArray(doc)) throw new InputError(file, { line: 1 }, "a JSON array of topics", typeof doc);
  return doc.map((t, i) => normalizeIkatTopic(file, t, i));
}

/** One topic object of any year into the normalized shape (ptkb object or list; turns or responses; 2025's Python literals). */
export function normalizeIkatTopic(file: string, t: unknown, i: number): IkatTopic {
  const where = `topic ${i}`;
  if (!isObj(t)) throw new InputError(file, {}, `an object for ${where}`, typeof t);
  const number = t.number;
  if (typeof number !== "string" && typeof number !== "number")
    throw new InputError(file, {}, `a "number" in ${where}`, describeFound(String(number)));
  const rawPtkb = typeof t.ptkb === "string" ? ptkbLiteral(file, t.ptkb, String(number)) : (t.ptkb ?? {});
  const ptkb = Array.isArray(rawPtkb)
    ? rawPtkb.map((text, k) => ({ id: String(k + 1), text: String(text) }))
    : isObj(rawPtkb)
      ? Object.entries(rawPtkb).map(([id, text]) => ({ id, text: String(text) }))
      : [];
  const rawTurns: unknown = t.turns ?? t.responses;
  if (!Array.isArray(rawTurns))
    throw new InputError(file, {}, `"turns" or "responses" in topic ${number}`, "none");
  const turns = rawTurns.map((u: unknown, k: number) =>
    topicTurn(file, u, `topic ${number} turn ${k}`, ptkb),
  );
  return { number: String(number), title: String(t.title ?? ""), ptkb, turns };
}

/** A topic's `ptkb` held as a Python list literal in a string (as 2025's turn fields may be). */
function ptkbLiteral(file: string, v: string, topic: string): string[] {
  let x: PyLiteral;
  try {
    x = parsePyLiteral(v);
  } catch (e) {
    if (e instanceof PyLiteralError)
      throw new InputError(
        file,
        {},
        `a Python list literal in topic ${topic} ptkb (${e.message})`,
        describeFound(v),
      );
    throw e;
  }
  if (!Array.isArray(x) || !x.every((s) => typeof s === "string"))
    throw new InputError(file, {}, `a list of statements in topic ${topic} ptkb`, describeFound(v));
  return x;
}

/**
 * One turn of a topic. 2025's turns may hold their fields as Python literals in strings (`turn_id`
 * `"1"`, `user_utterance` `"'Hi there!'"`, `citations` `"['clueweb22-…:1']"`): a turn whose
 * `turn_id`, `relevant_ptkbs` or `citations` is a string is read so, each field parsed on its own
 * (a text not starting with a quote is taken as it is). 2025's `relevant_ptkbs` are statement texts:
 * `ptkb_provenance` holds their ids (1-based positions in `ptkb`), the texts stay in `relevant_ptkbs`.
 */
function topicTurn(
  file: string,
  u: unknown,
  where: string,
  ptkb: { id: string; text: string }[],
): IkatTopicTurn {
  if (!isObj(u))
    throw new InputError(file, {}, `an object for ${where}`, describeFound(JSON.stringify(u) ?? ""));
  const literal =
    typeof u.turn_id === "string" || typeof u.relevant_ptkbs === "string" || typeof u.citations === "string";
  const bad = (field: string, expected: string, v: unknown, why?: string) =>
    new InputError(
      file,
      {},
      `${expected} in ${where} ${field}${why ? ` (${why})` : ""}`,
      describeFound(typeof v === "string" ? v : (JSON.stringify(v) ?? "nothing")),
    );
  const py = (field: string, v: string, expected: string): PyLiteral => {
    try {
      return parsePyLiteral(v);
    } catch (e) {
      if (e instanceof PyLiteralError) throw bad(field, expected, v, e.message);
      throw e;
    }
  };
  const text = (field: string, v: unknown): string => {
    if (v === undefined) return "";
    if (typeof v !== "string") throw bad(field, "a string", v);
    if (!literal || !/^\s*[rRuU]?['"]/.test(v)) return v;
    const x = py(field, v, "a Python string literal");
    if (typeof x !== "string") throw bad(field, "a Python string literal", v);
    return x;
  };
  const ids = (field: string, v: unknown): (string | number)[] => {
    const x = typeof v === "string" ? py(field, v, "a Python list literal") : v;
    if (!Array.isArray(x)) throw bad(field, "a list", v);
    return x.map((e) => {
      if (typeof e === "string" || typeof e === "number") return e;
      throw bad(field, "a list of strings or ints", v);
    });
  };
  let turn_id: unknown = u.turn_id;
  if (typeof turn_id === "string")
    turn_id = /^\s*\d+\s*$/.test(turn_id) ? Number(turn_id) : py("turn_id", turn_id, "an int");
  if (typeof turn_id !== "number" || !Number.isSafeInteger(turn_id))
    throw new InputError(file, {}, `a turn with an int turn_id in ${where}`, JSON.stringify(u).slice(0, 40));
  const out: IkatTopicTurn = {
    turn_id,
    utterance: text(
      u.utterance !== undefined ? "utterance" : "user_utterance",
      u.utterance ?? u.user_utterance,
    ),
    resolved_utterance: text("resolved_utterance", u.resolved_utterance),
    response: text("response", u.response),
    ptkb_provenance: [],
    response_provenance: [],
  };
  if (u.relevant_ptkbs !== undefined || u.citations !== undefined) {
    // 2025: statement texts and passage ids.
    const relevant = ids("relevant_ptkbs", u.relevant_ptkbs ?? []).map(String);
    const citations = ids("citations", u.citations ?? []).map(String);
    out.relevant_ptkbs = relevant;
    out.citations = citations;
    out.ptkb_provenance = relevant.map((r) => ptkb.find((p) => p.text === r)?.id ?? r);
    out.response_provenance = citations;
  } else {
    out.ptkb_provenance = idList(file, u.ptkb_provenance ?? [], where);
    out.response_provenance = list(file, u.response_provenance ?? [], where);
  }
  return out;
}

/**
 * Reads an iKAT run submission JSON, checked field by field into the record types (the validator,
 * `convkit-ikat validate`, checks the guidelines' rules; here a wrong type is one clear line).
 * Fields the types do not hold are left out.
 */
export async function readIkatRun(path: string): Promise<IkatRun> {
  const file = displayName(path);
  return parseIkatRun(file, parseJsonText(file, await readText(path)));
}

/** An iKAT run from parsed JSON, each field checked (Fields); a mismatch is an InputError naming its path. */
export function parseIkatRun(file: string, doc: unknown): IkatRun {
  const mismatch: Mismatch = (path, expected, found) =>
    new InputError(file, {}, `${expected} at ${path === "" ? "the top level" : `run.${path}`}`, found);
  const run = Fields.of(doc, mismatch);
  const out: IkatRun = {
    run_name: run.string("run_name"),
    run_type: run.string("run_type"),
    turns: run.objects("turns").map((turn) => ({
      turn_id: turn.string("turn_id"),
      responses: turn.objects("responses").map((resp) => {
        const response: IkatResponse = {
          rank: resp.number("rank"),
          text: resp.string("text"),
          passage_provenance: (resp.has("passage_provenance") ? resp.objects("passage_provenance") : []).map(
            (prov) => {
              const provenance: IkatProvenance = { id: prov.string("id") };
              const text = prov.optionalString("text");
              if (text !== undefined) provenance.text = text;
              const score = prov.optionalNumber("score");
              if (score !== undefined) provenance.score = score;
              const used = prov.optionalBoolean("used");
              if (used !== undefined) provenance.used = used;
              return provenance;
            },
          ),
        };
        if (resp.has("ptkb_provenance"))
          response.ptkb_provenance = resp.list("ptkb_provenance", (x, path) => {
            if (typeof x === "string" || typeof x === "number") return x;
            const o = Fields.of(x, mismatch, path);
            const id = o.get("id");
            if (typeof id !== "string" && typeof id !== "number") throw o.fail("id", "a PTKB id", id);
            const statement: IkatPtkbProvenance = { id: String(id) };
            const text = o.optionalString("text");
            if (text !== undefined) statement.text = text;
            const score = o.optionalNumber("score");
            if (score !== undefined) statement.score = score;
            return statement;
          });
        return response;
      }),
    })),
  };
  const evalResponse = run.optionalBoolean("eval_response");
  if (evalResponse !== undefined) out.eval_response = evalResponse;
  return out;
}

/**
 * The turns of an iKAT run as JSON objects, checked no further: what `convkit convert` writes out
 * (a run that breaks the guidelines' rules still converts; `convkit ikat validate` says what is wrong).
 */
export async function readIkatRunTurns(path: string): Promise<Record<string, unknown>[]> {
  const file = displayName(path);
  const doc = parseJsonText(file, await readText(path));
  if (!isObj(doc) || !Array.isArray(doc.turns))
    throw new InputError(
      file,
      { line: 1 },
      'a run object with a "turns" list',
      Array.isArray(doc) ? "an array" : typeof doc,
    );
  return doc.turns.map((t: unknown, i: number) => {
    if (!isObj(t))
      throw new InputError(
        file,
        {},
        `an object at run.turns[${i}]`,
        describeFound(JSON.stringify(t) ?? "nothing"),
      );
    return t;
  });
}

/** A list of PTKB ids (strings or ints), checked. */
function idList(file: string, v: unknown, where: string): (string | number)[] {
  return list(file, v, where).map((x) => {
    if (typeof x === "string" || typeof x === "number") return x;
    throw new InputError(
      file,
      {},
      `PTKB ids (strings or ints) in ${where}`,
      describeFound(JSON.stringify(x)),
    );
  });
}

/** A JSON list, checked. */
function list(file: string, v: unknown, where: string): unknown[] {
  if (!Array.isArray(v))
    throw new InputError(file, {}, `a list in ${where}`, describeFound(JSON.stringify(v)));
  return v;
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
    return typeof v.url === "string"
      ? { id: v.id, contents: v.contents, url: v.url }
      : { id: v.id, contents: v.contents };
  });
}

/** One passage line exactly as Python's `json.dumps` writes `{"id", "contents", "url"}`. */
export function formatPassageLine(p: PassageRecord): string {
  const url = p.url === undefined ? "" : `, "url": ${pythonJsonString(p.url)}`;
  const at = p.start === undefined ? "" : `, "start": ${p.start}, "end": ${p.end}`;
  return `{"id": ${pythonJsonString(p.id)}, "contents": ${pythonJsonString(p.contents)}${url}${at}}`;
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
    const md5 = textField(file, row, 2);
    if (!/^[0-9a-f]{32}$/.test(md5))
      throw new InputError(file, { line: row.line }, "an md5 hex digest", describeFound(md5));
    return {
      doc_id: textField(file, row, 0),
      passage_no: intField(file, row, 1, "an integer passage number"),
      md5,
    };
  });
}

export function writePassageHashes(
  target: string,
  batches: AsyncIterable<readonly PassageHash[]> | Iterable<readonly PassageHash[]>,
  options?: WriteOptions,
): Promise<number> {
  return writeLines(target, batches, (h) => `${h.doc_id}\t${h.passage_no}\t${h.md5}`, options);
}
