// JSON text as Python and pandas write it, and JSON parsing with located errors.
import { InputError, throwIfParquet } from "@convkit/io";
import { checkJsonDepth, jsonTextLocation, MAX_JSON_DEPTH } from "./json-depth.js";

/** JSON text parsed: its value, or why it is not JSON (JSON.parse's own sentence). */
export type JsonParsed = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * `JSON.parse` that returns its failure instead of throwing, for text whose failure is an answer
 * rather than a user's mistake at a line: a job field in Redis that BullMQ cannot read, a file
 * convkit wrote itself (a manifest, its own package.json), a value that may be a bare word. A
 * user's file goes through {@link parseJsonText}. `reviver` as JSON.parse's.
 */
export function tryParseJson(text: string, reviver?: (key: string, value: unknown) => unknown): JsonParsed {
  try {
    return { ok: true, value: JSON.parse(text, reviver) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * `JSON.parse` whose errors become an {@link InputError} with the line and column; nesting deeper
 * than `maxDepth` is one too (see {@link checkJsonDepth}).
 */
export function parseJsonText(file: string, text: string, firstLine = 1, maxDepth = MAX_JSON_DEPTH): unknown {
  const parsed = tryParseJson(text);
  if (!parsed.ok) {
    if (firstLine === 1) throwIfParquet(file, text);
    const msg = parsed.reason;
    const m = /position (\d+)/.exec(msg);
    const atEnd = /end of JSON input/i.test(msg);
    if (!m && !atEnd) throw new InputError(file, { line: firstLine }, "valid JSON", msg);
    const pos = m ? Number(m[1]) : text.length;
    const found = pos >= text.length ? "end of input" : JSON.stringify(text.slice(pos, pos + 10));
    throw new InputError(file, jsonTextLocation(text, pos, firstLine), "valid JSON", found);
  }
  // After the parse: its own errors come first (and the scan may trust the text is valid JSON).
  checkJsonDepth(file, text, firstLine, maxDepth);
  return parsed.value;
}
