// JSON read as Python's json.load reads it (what the official iKAT 2023/2024 scripts start from):
// ints and floats kept apart (protobuf's int fields take 2.0 but not 2.5, a float field takes
// `true`), ints exact, NaN/Infinity literals accepted, a repeated key's last value at its first
// place, a BOM refused; every list item and dict value with its line, for findings that name it.

/** A JSON value as Python holds it: ints as bigint (exact), floats as number. */
export type PyValue = null | boolean | bigint | number | string | PyList | PyDict;

/** A JSON array, with the 1-based line where each item starts. */
export class PyList {
  readonly items: PyValue[] = [];
  readonly lines: number[] = [];
  constructor(readonly line: number) {}
}

/**
 * A JSON object as a Python dict (insertion order; a repeated key keeps its first place, last
 * value), each value with its line. One flat array of key, value, line: runs hold many small
 * objects, and fewer allocations keep the garbage collector's share down.
 */
export class PyDict {
  private readonly slots: (string | PyValue | number)[] = [];
  constructor(readonly line: number) {}
  /** The number of keys. */
  get size(): number {
    return this.slots.length / 3;
  }
  key(i: number): string {
    return this.slots[3 * i] as string;
  }
  value(i: number): PyValue {
    return this.slots[3 * i + 1] as PyValue;
  }
  lineOf(i: number): number {
    return this.slots[3 * i + 2] as number;
  }
  private find(key: string): number {
    for (let i = 0; i < this.slots.length; i += 3) if (this.slots[i] === key) return i;
    return -1;
  }
  get(key: string): PyValue | undefined {
    const i = this.find(key);
    return i === -1 ? undefined : (this.slots[i + 1] as PyValue);
  }
  has(key: string): boolean {
    return this.find(key) !== -1;
  }
  set(key: string, value: PyValue, line: number): void {
    const i = this.find(key);
    if (i !== -1) this.slots[i + 1] = value;
    else this.slots.push(key, value, line);
  }
}

/** Where json.load stopped, with Python's message (`Expecting value`, …). */
export class PyJsonError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly col: number,
    readonly pos: number,
  ) {
    super(`${reason}: line ${line} column ${col} (char ${pos})`);
    this.name = "PyJsonError";
  }
}

/** Python's nesting limit (its recursion limit, 1000): deeper is an error there too. */
const MAX_DEPTH = 990;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const CONTROL = /[\x00-\x1f]/g;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;

/** The bytes as Python's `open(…, encoding="utf-8")` + `json.load` read them. */
export function parsePyJsonBytes(bytes: Uint8Array): PyValue {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new PyJsonError("'utf-8' codec can't decode the bytes (not UTF-8)", 1, 1, 0);
  }
  return parsePyJson(text);
}

/** `json.loads(text)`. */
export function parsePyJson(text: string): PyValue {
  if (text.charCodeAt(0) === 0xfeff)
    throw new PyJsonError("Unexpected UTF-8 BOM (decode using utf-8-sig)", 1, 1, 0);
  let pos = 0;
  let line = 1;
  const fail = (reason: string, at = pos): never => {
    let l = 1;
    let start = 0;
    for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) {
      l++;
      start = i + 1;
    }
    throw new PyJsonError(reason, l, at - start + 1, at);
  };
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x09 || c === 0x0d) pos++;
      else if (c === 0x0a) {
        pos++;
        line++;
      } else return;
    }
  };
  let backslash = text.indexOf("\\");
  const str = (): string => {
    const begin = pos; // at the opening quote
    pos++;
    let out = "";
    for (;;) {
      // Plain runs up to the next quote or backslash in one slice (a control character there is an error).
      let q = text.indexOf('"', pos);
      if (q === -1) fail("Unterminated string starting at", begin);
      // The next backslash, found once for the text ahead (searching from each string would be quadratic).
      if (backslash !== -1 && backslash < pos) backslash = text.indexOf("\\", pos);
      if (backslash !== -1 && backslash < q) q = backslash;
      const run = text.slice(pos, q);
      CONTROL.lastIndex = 0;
      const bad = CONTROL.exec(run);
      if (bad) fail("Invalid control character at", pos + bad.index);
      out += run;
      pos = q;
      if (text.charCodeAt(pos) === 0x22) {
        pos++;
        return out;
      }
      const e = text[pos + 1] ?? "";
      if (e === "") fail("Unterminated string starting at", begin);
      if (e === "u") {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("Invalid \\uXXXX escape", pos + 1);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        pos += 6;
      } else if (Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
        pos += 2;
      } else fail("Invalid \\escape", pos);
    }
  };
  const value = (depth: number): PyValue => {
    if (depth > MAX_DEPTH) fail("maximum recursion depth exceeded");
    const c = text[pos];
    if (c === '"') return str();
    if (c === "{") {
      const d = new PyDict(line);
      pos++;
      ws();
      if (text[pos] === "}") {
        pos++;
        return d;
      }
      for (;;) {
        if (text[pos] !== '"') fail("Expecting property name enclosed in double quotes");
        const key = str();
        ws();
        if (text[pos] !== ":") fail("Expecting ':' delimiter");
        pos++;
        ws();
        const at = line;
        const v = value(depth + 1);
        d.set(key, v, at);
        ws();
        if (text[pos] === "}") {
          pos++;
          return d;
        }
        if (text[pos] !== ",") fail("Expecting ',' delimiter");
        pos++;
        ws();
      }
    }
    if (c === "[") {
      const l = new PyList(line);
      pos++;
      ws();
      if (text[pos] === "]") {
        pos++;
        return l;
      }
      for (;;) {
        l.lines.push(line);
        l.items.push(value(depth + 1));
        ws();
        if (text[pos] === "]") {
          pos++;
          return l;
        }
        if (text[pos] !== ",") fail("Expecting ',' delimiter");
        pos++;
        ws();
      }
    }
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      NUMBER.lastIndex = pos;
      const m = NUMBER.exec(text);
      if (m) {
        pos += m[0].length;
        return m[1] === undefined && m[2] === undefined ? BigInt(m[0]) : Number(m[0]);
      }
    }
    for (const [word, v] of [
      ["null", null],
      ["true", true],
      ["false", false],
      ["NaN", Number.NaN],
      ["Infinity", Number.POSITIVE_INFINITY],
      ["-Infinity", Number.NEGATIVE_INFINITY],
    ] as const)
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return v;
      }
    return fail("Expecting value");
  };
  ws();
  const v = value(0);
  ws();
  if (pos < text.length) fail("Extra data");
  return v;
}

/** The plain JSON value (ints as numbers), for checks that do not need Python's types. */
export function toPlain(v: PyValue): unknown {
  if (typeof v === "bigint") return Number(v);
  if (v instanceof PyList) return v.items.map(toPlain);
  if (v instanceof PyDict) {
    const o: Record<string, unknown> = {};
    for (let i = 0; i < v.size; i++) o[v.key(i)] = toPlain(v.value(i));
    return o;
  }
  return v;
}

/** Python's type name of a JSON value (for its error messages). */
export function pyTypeName(v: PyValue): string {
  if (v === null) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return "float";
  if (typeof v === "string") return "str";
  return v instanceof PyList ? "list" : "dict";
}
