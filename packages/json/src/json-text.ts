// JSON text as Python and pandas write it, and JSON parsing with located errors.
import { InputError, throwIfParquet } from "@convkit/io";
import { checkJsonDepth, jsonTextLocation, MAX_JSON_DEPTH } from "./json-depth.js";

/**
 * `JSON.parse` whose errors become an {@link InputError} with the line and column; nesting deeper
 * than `maxDepth` is one too (see {@link checkJsonDepth}).
 */
export function parseJsonText(file: string, text: string, firstLine = 1, maxDepth = MAX_JSON_DEPTH): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (firstLine === 1) throwIfParquet(file, text);
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    const atEnd = /end of JSON input/i.test(msg);
    if (!m && !atEnd) throw new InputError(file, { line: firstLine }, "valid JSON", msg);
    const pos = m ? Number(m[1]) : text.length;
    const found = pos >= text.length ? "end of input" : JSON.stringify(text.slice(pos, pos + 10));
    throw new InputError(file, jsonTextLocation(text, pos, firstLine), "valid JSON", found);
  }
  // After the parse: its own errors come first (and the scan may trust the text is valid JSON).
  checkJsonDepth(file, text, firstLine, maxDepth);
  return value;
}
