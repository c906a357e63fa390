// TREC iKAT 2025 runs: JSON Lines, one turn a line, read streamed and checked field by field.
import { describeFound, InputError, openInput, readLineBatches, type WriteOptions } from "@convkit/io";
import {
  checkJsonDepth,
  Fields,
  isJsonObject,
  type Mismatch,
  parseJsonText,
  tryParseJson,
} from "@convkit/json";
import { formatPyJsonFloat, pyStrip, pythonJsonString } from "@convkit/pycompat";
import { writeLines } from "./lines.js";
import { pySortedOrder } from "./python-json-sort.js";
import type { Ikat25Metadata, Ikat25Response, Ikat25Scored, Ikat25Turn } from "./records.js";
import { displayName } from "./table.js";

/**
 * The turns of a 2025 run, in batches (memory holds one batch; blank lines are skipped). A field
 * of the wrong type is one InputError naming the file, the line and the field's path. A line
 * without `responses` reads as none, as the official validator reads it (`entry.get("responses", [])`).
 */
export async function* readIkat25Run(path: string): AsyncIterable<Ikat25Turn[]> {
  const src = await openInput(path);
  const file = displayName(path);
  for await (const b of readLineBatches(src)) {
    const out: Ikat25Turn[] = [];
    for (const [i, line] of b.lines.entries()) {
      // Python's line.strip(), as the official scripts read each line: a line of its whitespace
      // (U+001C, U+0085, U+00A0, …) is skipped, and around JSON it is not an error.
      const l = pyStrip(line);
      if (l.length > 0) out.push(parseIkat25Line(file, l, b.firstLine + i));
    }
    if (out.length > 0) yield out;
  }
}

/**
 * One run line's text (its JSON depth bounded as every JSON reader's) into a checked turn. The
 * official scripts read lines with Python's `json.loads`, which takes `NaN`, `Infinity` and
 * `-Infinity` as numbers: so does this (JSON.parse does not).
 */
export function parseIkat25Line(file: string, text: string, line: number): Ikat25Turn {
  let v: unknown;
  let parsed = text;
  try {
    v = parseJsonText(file, text, line);
  } catch (e) {
    const alt = e instanceof InputError ? withPySpecials(text) : undefined;
    if (alt === undefined) throw e;
    const special = tryParseJson(alt, (_, x: unknown) =>
      typeof x === "string" ? (SPECIALS.get(x) ?? x) : x,
    );
    if (!special.ok) throw e;
    v = special.value;
    checkJsonDepth(file, alt, line);
    parsed = alt;
  }
  return ikat25Turn(file, v, line, parsed);
}

/** Python's non-JSON number tokens, as the strings {@link withPySpecials} puts in their place. */
const SPECIALS = new Map([
  ["\u0000\u0001NaN", Number.NaN],
  ["\u0000\u0001Infinity", Number.POSITIVE_INFINITY],
  ["\u0000\u0001-Infinity", Number.NEGATIVE_INFINITY],
]);

/**
 * The line with each `NaN`, `Infinity` and `-Infinity` outside strings written as a marker string
 * (undefined when there is none, or when the line could hold a marker of its own: such a string is
 * written `\u0000\u0001…` in JSON text, and only so).
 */
function withPySpecials(text: string): string | undefined {
  if (text.includes("\\u0000\\u0001")) return undefined;
  const out: string[] = [];
  let last = 0;
  let found = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      continue;
    }
    const m = /^(-?Infinity|NaN)/.exec(text.slice(i, i + 9));
    if (m && !/[\w.]/.test(text[i - 1] ?? "") && !/[\w.]/.test(text[i + m[0].length] ?? "")) {
      out.push(text.slice(last, i), JSON.stringify(`\u0000\u0001${m[0]}`));
      i += m[0].length - 1;
      last = i + 1;
      found = true;
    }
  }
  if (!found) return undefined;
  out.push(text.slice(last));
  return out.join("");
}

/**
 * A parsed run line into a checked turn. `text`, the line as written, gives the file order of
 * `references` and `citations` where a passage id looks like an integer (JS puts those keys first).
 */
export function ikat25Turn(file: string, v: unknown, line: number, text?: string): Ikat25Turn {
  const mismatch: Mismatch = (path, expected, found) =>
    new InputError(file, { line }, `${expected} at ${path === "" ? "the top level" : path}`, found);
  const orders = text === undefined ? undefined : keyOrders(v, text);
  // A passage id is any string, so its path is written as a JSON key (`references["x"]`).
  const scored = (o: Fields, order: string[] | undefined): Ikat25Scored[] =>
    (order ?? o.keys()).map((id) => {
      const score = o.get(id);
      if (typeof score !== "number")
        throw mismatch(`${o.path}[${JSON.stringify(id)}]`, "a number (the passage's score)", shown(score));
      return { id, score };
    });
  const top = Fields.of(v, mismatch, "", shown);
  const md = top.object("metadata");
  const metadata: Ikat25Metadata = {
    team_id: md.string("team_id"),
    run_id: md.string("run_id"),
    run_type: md.string("run_type"),
  };
  const turn_id = top.string("turn_id");
  const references = scored(top.object("references"), orders?.references);
  // Absent is none (`entry.get("responses", [])`); null is not a list there either.
  const rawResponses = top.get("responses");
  if (rawResponses !== undefined && !Array.isArray(rawResponses))
    throw top.fail("responses", "a list", rawResponses);
  // Each response checked whole before the next: the first bad field in file order is the one named.
  const responses = (rawResponses ?? []).map((r: unknown, i: number): Ikat25Response => {
    const resp = Fields.of(r, mismatch, `responses[${i}]`, shown);
    const text = resp.string("text");
    const citations = scored(resp.object("citations"), orders?.citations[i]);
    const ptkb = resp.get("ptkb_provenance");
    if (!Array.isArray(ptkb)) throw resp.fail("ptkb_provenance", "a list of PTKB ids", ptkb);
    const ptkb_provenance = ptkb.map((p: unknown, k: number) => {
      if (typeof p === "string") return p;
      // 2024's runs gave PTKB ids as ints: read as their digits, the 2025 topics' ids.
      if (typeof p === "number" && Number.isInteger(p)) return String(p);
      throw mismatch(`${resp.at("ptkb_provenance")}[${k}]`, "a PTKB id (a string or an int)", shown(p));
    });
    return { text, citations, ptkb_provenance };
  });
  return { metadata, turn_id, references, responses };
}

/** A found value as its JSON text (strings quoted, `null` not), cut to 40 characters. */
function shown(x: unknown): string {
  if (x === undefined) return "nothing";
  if (typeof x === "number" && !Number.isFinite(x)) return formatPyJsonFloat(x);
  if (typeof x === "string") return describeFound(x);
  const s = JSON.stringify(x);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** Digit-only keys: JS orders them first and numerically, not in file order. */
const DIGITS = /^\d+$/;

function hasDigitKey(x: unknown): boolean {
  return isJsonObject(x) && Object.keys(x).some((k) => DIGITS.test(k));
}

/**
 * The file order of the keys of `references` and of each response's `citations`, where one holds a
 * digit-only key (otherwise undefined: `Object.keys` is already in file order). The line is parsed
 * again with every object key prefixed by one character, so that no key is an integer.
 */
function keyOrders(
  v: unknown,
  text: string,
): { references?: string[]; citations: (string[] | undefined)[] } | undefined {
  if (!isJsonObject(v)) return undefined;
  const responses = Array.isArray(v.responses) ? v.responses : [];
  const needed =
    hasDigitKey(v.references) || responses.some((r: unknown) => isJsonObject(r) && hasDigitKey(r.citations));
  if (!needed) return undefined;
  const prefixed = tryParseJson(prefixKeys(text));
  const p = prefixed.ok ? prefixed.value : undefined;
  if (!isJsonObject(p)) return undefined;
  const keys = (x: unknown) => (isJsonObject(x) ? Object.keys(x).map((k) => k.slice(1)) : undefined);
  const pr = Array.isArray(p._responses) ? p._responses : [];
  return {
    references: keys(p._references),
    citations: pr.map((r: unknown) => (isJsonObject(r) ? keys(r._citations) : undefined)),
  };
}

/** Valid JSON text with `_` put before every object key (a string followed by `:`). */
function prefixKeys(text: string): string {
  const out: string[] = [];
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '"') continue;
    const start = i;
    for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
    let j = i + 1;
    while (j < text.length && /\s/.test(text.charAt(j))) j++;
    if (text[j] === ":") {
      out.push(text.slice(last, start + 1), "_");
      last = start + 1;
    }
  }
  out.push(text.slice(last));
  return out.join("");
}

/**
 * A turn's references as the official `generate_run.py` ranks them: `sorted(references.items(),
 * key=lambda x: x[1], reverse=True)`, by CPython's own sort ({@link pySortedOrder}): ties stay in
 * the order given, and a NaN score lands where listsort's comparisons (all false) leave it, which
 * no JS comparator reproduces.
 */
export function rankIkat25References(refs: readonly Ikat25Scored[]): Ikat25Scored[] {
  return pySortedOrder(
    refs.map((r) => r.score),
    true,
  ).map((i) => refs[i] as Ikat25Scored);
}

function scoredJson(s: readonly Ikat25Scored[]): string {
  return `{${s.map((r) => `${pythonJsonString(r.id)}: ${formatPyJsonFloat(r.score)}`).join(", ")}}`;
}

/**
 * One turn as a run line, laid out as Python's `json.dumps` writes the guidelines' dicts (keys in
 * the guidelines' order, `", "` and `": "`, non-ASCII escaped, scores as floats).
 */
export function formatIkat25Line(t: Ikat25Turn): string {
  const m = t.metadata;
  const metadata = `{"team_id": ${pythonJsonString(m.team_id)}, "run_id": ${pythonJsonString(m.run_id)}, "run_type": ${pythonJsonString(m.run_type)}}`;
  const responses = t.responses.map(
    (r) =>
      `{"text": ${pythonJsonString(r.text)}, "citations": ${scoredJson(r.citations)}, "ptkb_provenance": [${r.ptkb_provenance.map((p) => pythonJsonString(p)).join(", ")}]}`,
  );
  return `{"metadata": ${metadata}, "turn_id": ${pythonJsonString(t.turn_id)}, "references": ${scoredJson(t.references)}, "responses": [${responses.join(", ")}]}`;
}

/** Writes a 2025 run, one line a turn (atomically, as every writer). */
export function writeIkat25Run(
  target: string,
  batches: AsyncIterable<readonly Ikat25Turn[]> | Iterable<readonly Ikat25Turn[]>,
  options?: WriteOptions,
): Promise<number> {
  return writeLines(target, batches, formatIkat25Line, options);
}
