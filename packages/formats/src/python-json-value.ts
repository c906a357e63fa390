// What Python does with values json.loads made: type names, repr/str, `<` (with its TypeError),
// `==`, set membership; the pieces a reproduced script's messages and sorts are made of.
import { formatPyFloat } from "@convkit/pycompat";
import { PyException, type PyJson } from "./python-json.js";

/** `type(v).__name__`. */
export function pyJsonTypeName(v: PyJson): string {
  if (v === null) return "NoneType";
  switch (typeof v) {
    case "boolean":
      return "bool";
    case "bigint":
      return "int";
    case "number":
      return "float";
    case "string":
      return "str";
  }
  return Array.isArray(v) ? "list" : "dict";
}

/** `str(v)`: a string as it is, anything else as its repr. */
export function pyStr(v: PyJson): string {
  return typeof v === "string" ? v : pyRepr(v);
}

/** `repr(v)`. */
export function pyRepr(v: PyJson): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return formatPyFloat(v);
  if (typeof v === "string") return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return `{${[...v].map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`).join(", ")}}`;
}

/** Not `str.isprintable()`: categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other than the space. */
const NOT_PRINTABLE = /[\p{C}\p{Z}]/u;

/** `repr(s)` of a str: quotes as Python picks them, non-printables as \x, \u, \U escapes. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp < 0x7f || ch === " ") out += ch;
    else if (!NOT_PRINTABLE.test(ch)) out += ch;
    else if (cp <= 0xff) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp <= 0xffff) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return out + quote;
}

type Num = boolean | bigint | number;
const isNum = (v: PyJson): v is Num =>
  typeof v === "boolean" || typeof v === "bigint" || typeof v === "number";
const asExact = (v: boolean | bigint) => (typeof v === "bigint" ? v : v ? 1n : 0n);

/** Sign of a − b compared exactly (int against float too); NaN gives NaN. */
function numCompare(a: Num, b: Num): number {
  if (typeof a === "number" && typeof b === "number")
    return a < b ? -1 : a > b ? 1 : a === b ? 0 : Number.NaN;
  if (typeof a !== "number" && typeof b !== "number") {
    const x = asExact(a);
    const y = asExact(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === "number") return -numCompare(b, a);
  const i = asExact(a);
  const f = b as number;
  if (Number.isNaN(f)) return Number.NaN;
  if (!Number.isFinite(f)) return f > 0 ? -1 : 1;
  const fl = Math.floor(f);
  const bf = BigInt(fl);
  if (i < bf) return -1;
  if (i > bf) return 1;
  return fl === f ? 0 : -1;
}

/** Python's code-point order of strings (JS's `<` orders UTF-16 units). */
function strCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return (a.codePointAt(i) ?? x) - (b.codePointAt(i) ?? y);
  }
  return a.length - b.length;
}

/** `a < b`, raising TypeError where Python does. */
export function pyLt(a: PyJson, b: PyJson): boolean {
  // Two floats, the common case of scores: IEEE's `<` is Python's.
  if (typeof a === "number" && typeof b === "number") return a < b;
  if (isNum(a) && isNum(b)) return numCompare(a, b) < 0;
  if (typeof a === "string" && typeof b === "string") return strCompare(a, b) < 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++)
      if (!pyEq(a[i] as PyJson, b[i] as PyJson)) return pyLt(a[i] as PyJson, b[i] as PyJson);
    return a.length < b.length;
  }
  throw new PyException(
    "TypeError",
    `'<' not supported between instances of '${pyJsonTypeName(a)}' and '${pyJsonTypeName(b)}'`,
  );
}

/**
 * `a == b` as containers compare their items: identity first, and json.loads gives every NaN the
 * same float object (its parse_constant), so NaN equals NaN here.
 */
export function pyEq(a: PyJson, b: PyJson): boolean {
  if (isNum(a) && isNum(b)) {
    if (typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b)) return true;
    return numCompare(a, b) === 0;
  }
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => pyEq(x, b[i] as PyJson));
  }
  if (typeof a !== "object" || typeof b !== "object" || a.size !== b.size) return false;
  for (const [k, x] of a) {
    if (!b.has(k) || !pyEq(x, b.get(k) as PyJson)) return false;
  }
  return true;
}

/** Raises Python's TypeError for a value a set or dict cannot hold. */
export function pyCheckHashable(v: PyJson): void {
  if (v !== null && typeof v === "object")
    throw new PyException("TypeError", `unhashable type: '${pyJsonTypeName(v)}'`);
}

/** A key such that two hashable values are `==` exactly when their keys are (1, 1.0, True alike). */
export function pyHashKey(v: PyJson): string {
  pyCheckHashable(v);
  if (typeof v === "string") return `s${v}`;
  if (v === null) return "n";
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "nan";
    if (Number.isInteger(v)) return `i${BigInt(v)}`;
    return `f${v}`;
  }
  return `i${asExact(v as boolean | bigint)}`;
}

/** A Python set of hashable values (membership by ==). */
export class PySet {
  private readonly keys = new Set<string>();
  add(v: PyJson): void {
    this.keys.add(pyHashKey(v));
  }
  has(v: PyJson): boolean {
    return this.keys.has(pyHashKey(v));
  }
}
