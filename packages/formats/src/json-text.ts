// JSON text as Python and pandas write it, and JSON parsing with located errors.
import { InputError } from "@convkit/io";

/** Python `json.dumps(s)` of a string (ensure_ascii: non-ASCII as `\uXXXX`, astral as surrogate pairs). */
export function pythonJsonString(s: string): string {
  let out = '"';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(last, i);
    last = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += "\\\\";
        break;
      case 0x0a:
        out += "\\n";
        break;
      case 0x0d:
        out += "\\r";
        break;
      case 0x09:
        out += "\\t";
        break;
      case 0x08:
        out += "\\b";
        break;
      case 0x0c:
        out += "\\f";
        break;
      default:
        out += `\\u${c.toString(16).padStart(4, "0")}`;
    }
  }
  return `${out + s.slice(last)}"`;
}

/** `JSON.parse` whose errors become an {@link InputError} with the line and column. */
export function parseJsonText(file: string, text: string, firstLine = 1): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    if (!m) throw new InputError(file, { line: firstLine }, "valid JSON", msg);
    const pos = Number(m[1]);
    const before = text.slice(0, pos);
    const line = firstLine + (before.match(/\n/g)?.length ?? 0);
    const col = pos - before.lastIndexOf("\n");
    const found = pos >= text.length ? "end of input" : JSON.stringify(text.slice(pos, pos + 10));
    throw new InputError(file, { line, col }, "valid JSON", found);
  }
}
