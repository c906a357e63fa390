// Python's text forms (float repr, json.dumps strings), so files we write read the same as upstream's.

/** `repr(float)` of Python 3: shortest round-trip digits, exponent below 1e-4 and from 1e16. */
export function formatPyFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const abs = Math.abs(x);
  if (abs >= 1e16 || abs < 1e-4) {
    const [m, e] = x.toExponential().split("e") as [string, string];
    const exp = Number(e);
    const sign = exp < 0 ? "-" : "+";
    const digits = String(Math.abs(exp)).padStart(2, "0");
    return `${m}e${sign}${digits}`;
  }
  const s = String(x);
  return s.includes(".") || s.includes("e") ? s : `${s}.0`;
}

/**
 * Python `json.dumps(s)` of a string: with `ensureAscii` (its default) non-ASCII as `\uXXXX`,
 * astral as surrogate pairs; without, only `"`, `\` and the controls below U+0020 escaped.
 */
export function pythonJsonString(s: string, ensureAscii = true): string {
  let out = '"';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0x7f || !ensureAscii)) continue;
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

/** `json.dumps` of a float: its repr, NaN and ±Infinity spelled as JSON-ish Python writes them. */
export function formatPyJsonFloat(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  return formatPyFloat(x);
}

/**
 * The one-character escapes of a Python string literal (`\n`, `\t`, `\a`, …): what
 * `ast.literal_eval` and pickle's protocol-0 strings read.
 */
export const PY_STRING_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

/** Whether a UTF-16 unit is in Python's `str.isspace()` set (what `str.split()` and `str.strip()` treat as space; all of it is in the BMP). */
export function isPySpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Where Python's `s.strip()` starts: the length of the leading whitespace (`str.isspace`). */
export function pyStripStart(s: string): number {
  let a = 0;
  while (a < s.length && isPySpace(s.charCodeAt(a))) a++;
  return a;
}

/** Python's `s.strip()`: its whitespace (`str.isspace`) off both ends. */
export function pyStrip(s: string): string {
  const a = pyStripStart(s);
  let b = s.length;
  while (b > a && isPySpace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}
