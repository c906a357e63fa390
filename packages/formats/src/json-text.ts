// JSON text as Python and pandas write it, and JSON parsing with located errors.
import { InputError } from "@convkit/io";

/** `JSON.parse` whose errors become an {@link InputError} with the line and column. */
export function parseJsonText(file: string, text: string, firstLine = 1): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    const atEnd = /end of JSON input/i.test(msg);
    if (!m && !atEnd) throw new InputError(file, { line: firstLine }, "valid JSON", msg);
    const pos = m ? Number(m[1]) : text.length;
    const before = text.slice(0, pos);
    const line = firstLine + (before.match(/\n/g)?.length ?? 0);
    const col = pos - before.lastIndexOf("\n");
    const found = pos >= text.length ? "end of input" : JSON.stringify(text.slice(pos, pos + 10));
    throw new InputError(file, { line, col }, "valid JSON", found);
  }
}
