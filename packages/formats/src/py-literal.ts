// Python literals held in strings (`"'Hi there!'"`, `"['a', 'b']"`), parsed as `ast.literal_eval`
// reads them, never evaluated: strings (any quotes, prefixes r/u, escapes, adjacent ones joined),
// ints, and lists or tuples of those. Anything else is refused.
import { PY_STRING_ESCAPES } from "@convkit/pycompat";

/** A value a Python literal of the supported kinds gives. */
export type PyLiteral = string | number | PyLiteral[];

/** Thrown with where the literal went wrong; callers turn it into their InputError. */
export class PyLiteralError extends Error {}

/** Python's one-character escapes, and a backslash before a line break continuing the line. */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { ...PY_STRING_ESCAPES, "\n": "" };

/** The whole of `text` as one Python literal (surrounding whitespace allowed). */
export function parsePyLiteral(text: string): PyLiteral {
  const p = new Parser(text);
  p.skip();
  const v = p.value();
  p.skip();
  if (p.i < text.length) p.fail("the end of the literal");
  return v;
}

class Parser {
  i = 0;
  /** Bracket nesting: inside brackets, line breaks are whitespace (as in Python). */
  private depth = 0;
  constructor(private readonly s: string) {}

  fail(expected: string): never {
    const at = this.s.slice(this.i, this.i + 12);
    throw new PyLiteralError(
      `${expected} at offset ${this.i}${at ? ` (${JSON.stringify(at)})` : " (the end)"}`,
    );
  }

  skip(): void {
    const ws = this.depth > 0 ? /[ \t\f\r\n]/ : /[ \t\f]/;
    while (this.i < this.s.length && ws.test(this.s.charAt(this.i))) this.i++;
  }

  value(): PyLiteral {
    if (this.depth > 100) this.fail("at most 100 nested lists");
    const c = this.s[this.i];
    if (c === "[" || c === "(") return this.list(c === "[" ? "]" : ")");
    if (c !== undefined && /[0-9+-]/.test(c)) return this.int();
    if (this.atString()) {
      let out = this.string();
      // Adjacent literals are one string, as Python joins them.
      for (;;) {
        const save = this.i;
        this.skip();
        if (!this.atString()) {
          this.i = save;
          return out;
        }
        out += this.string();
      }
    }
    return this.fail("a string, an int or a list");
  }

  private atString(): boolean {
    const m = /^[rRuU]?['"]/.exec(this.s.slice(this.i, this.i + 2));
    return m !== null;
  }

  private list(close: string): PyLiteral {
    this.i++;
    this.depth++;
    const out: PyLiteral[] = [];
    for (;;) {
      this.skip();
      if (this.s[this.i] === close) break;
      out.push(this.value());
      this.skip();
      if (this.s[this.i] === ",") {
        this.i++;
        continue;
      }
      if (this.s[this.i] !== close) this.fail(`"," or "${close}"`);
      // `(x)` is x itself, not a tuple.
      if (close === ")" && out.length === 1) {
        this.i++;
        this.depth--;
        return out[0]!;
      }
      break;
    }
    this.i++;
    this.depth--;
    return out;
  }

  private int(): number {
    const m = /^[+-]?(0|[1-9](_?\d)*)(?![\w.])/.exec(this.s.slice(this.i));
    if (!m) this.fail("an int");
    this.i += m[0].length;
    const n = Number(m[0].replace(/_/g, ""));
    if (!Number.isSafeInteger(n)) this.fail("an int of at most 15 digits");
    return n;
  }

  private string(): string {
    let raw = false;
    if (/[rRuU]/.test(this.s.charAt(this.i))) {
      raw = /[rR]/.test(this.s.charAt(this.i));
      this.i++;
    }
    const q = this.s.charAt(this.i);
    const triple = this.s.startsWith(q.repeat(3), this.i);
    const end = triple ? q.repeat(3) : q;
    this.i += end.length;
    let out = "";
    for (;;) {
      if (this.i >= this.s.length) this.fail(`the closing ${end}`);
      if (this.s.startsWith(end, this.i)) {
        this.i += end.length;
        return out;
      }
      const c = this.s.charAt(this.i);
      if ((c === "\n" || c === "\r") && !triple) this.fail(`the closing ${end} before the line break`);
      if (c !== "\\") {
        out += c;
        this.i++;
        continue;
      }
      const e = this.s[this.i + 1];
      if (e === undefined) this.fail("an escape");
      if (raw) {
        // A raw string keeps the backslash; it still cannot end the string.
        out += c + e;
        this.i += 2;
        continue;
      }
      this.i += 2;
      if (e in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[e];
      else if (/[0-7]/.test(e)) {
        let oct = e;
        while (oct.length < 3 && /[0-7]/.test(this.s[this.i] ?? "")) oct += this.s[this.i++];
        out += String.fromCodePoint(Number.parseInt(oct, 8));
      } else if (e === "x" || e === "u" || e === "U") {
        const n = e === "x" ? 2 : e === "u" ? 4 : 8;
        const hex = this.s.slice(this.i, this.i + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) {
          this.i -= 2;
          this.fail(`\\${e} and ${n} hex digits`);
        }
        const cp = Number.parseInt(hex, 16);
        if (cp > 0x10ffff) this.fail("a code point up to U+10FFFF");
        out += String.fromCodePoint(cp);
        this.i += n;
      } else if (e === "N") {
        this.i -= 2;
        this.fail("an escape other than \\N{…} (named characters are not known here)");
      } else if (e === "\r") {
        // A backslash before CRLF continues the line.
        if (this.s[this.i] === "\n") this.i++;
      } else {
        // An unknown escape stays as written (Python warns and keeps both characters).
        out += c + e;
      }
    }
  }
}
