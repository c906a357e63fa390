// Nesting depth of JSON input, checked before anything walks the parsed value. V8's JSON.parse
// builds a million-deep array without complaint, but every recursive walk after it (JSON.stringify
// in an error message, a converter) overflows the stack: a RangeError and a stack trace for a
// user's file. The scan is linear, skips strings, and locates the first bracket too deep.
import { InputError } from "@convkit/io";

/**
 * The deepest nesting read: CPython's `json` stops at its recursion limit (1000 frames), so no
 * upstream tool of the datasets reads anything deeper.
 */
export const MAX_JSON_DEPTH = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const NEWLINE = 0x0a;

function tooDeep(file: string, line: number, col: number, max: number, open: number): InputError {
  const what = open === OPEN_ARRAY ? "an array" : "an object";
  return new InputError(file, { line, col }, `JSON nested at most ${max} deep`, `${what} nested deeper`);
}

/** Line and column (1-based, UTF-16 units as JSON.parse counts) of `pos` in `text`. */
export function jsonTextLocation(text: string, pos: number, firstLine = 1): { line: number; col: number } {
  let line = firstLine;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < pos; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: pos - lineStart + 1 };
}

/** Throws an {@link InputError} at the first `[` or `{` nested deeper than `max` in `text`. */
export function checkJsonDepth(file: string, text: string, firstLine = 1, max = MAX_JSON_DEPTH): void {
  // Nesting deeper than max takes more than max characters: short texts (most JSONL lines) pass unscanned.
  if (text.length <= max) return;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: one not preceded by an odd run of backslashes (an unclosed string
      // ends the scan; JSON.parse reports it).
      let j = text.indexOf('"', i + 1);
      while (j >= 0) {
        let k = j - 1;
        while (text.charCodeAt(k) === BACKSLASH) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (j < 0) return;
      i = j;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) {
        const at = jsonTextLocation(text, i, firstLine);
        throw tooDeep(file, at.line, at.col, max, c);
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
}

/**
 * The same check over a byte stream fed chunk by chunk (UTF-8; brackets, quotes and backslashes
 * are ASCII, so no character straddling two chunks matters). Columns count characters.
 */
export class JsonDepthScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private line = 1;
  /** Characters of the current line before the current chunk (UTF-8 continuation bytes not counted). */
  private col = 0;

  constructor(
    private readonly file: string,
    private readonly max = MAX_JSON_DEPTH,
  ) {}

  feed(chunk: Uint8Array): void {
    const max = this.max;
    let { depth, inString, escaped, line, col } = this;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if ((c & 0xc0) !== 0x80) col++;
      if (c === NEWLINE) {
        line++;
        col = 0;
      } else if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (++depth > max) throw tooDeep(this.file, line, col, max, c);
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.line = line;
    this.col = col;
  }
}
