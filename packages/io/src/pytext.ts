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

// JSON.stringify escapes exactly what Python's json.dumps does (", \\, the same short escapes,
// other controls and lone surrogates as lowercase \uXXXX) except that ensure_ascii also escapes
// DEL and every unit above it: those are replaced afterwards, one UTF-16 unit at a time (so an
// astral character becomes its surrogate pair, as in Python).
const ABOVE_ASCII = /[\u007f-\uffff]/;
const ABOVE_ASCII_ALL = /[\u007f-\uffff]/g;
const escapeUnit = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Python `json.dumps(s)` of a string (ensure_ascii: non-ASCII as `\uXXXX`, astral as surrogate pairs). */
export function pythonJsonString(s: string): string {
  const j = JSON.stringify(s);
  return ABOVE_ASCII.test(j) ? j.replace(ABOVE_ASCII_ALL, escapeUnit) : j;
}
