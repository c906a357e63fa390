// Python protobuf's json_format.ParseDict on the iKAT 2023/2024 run messages (run.proto of each
// year): what it accepts, coerces and refuses, and its error text. Measured against protobuf 7.36
// (upb): keys by JSON or proto name, a later key overriding an earlier one, null as the default,
// strings and integral floats for int32, strings and bools for float, float32 rounding, unknown
// fields refused; an empty string or list where a message is expected reads as an empty message.
import {
  type PyJson,
  type PyJsonDoc,
  type PyJsonLines,
  pyStr,
  pyStrRepr,
  pyJsonTypeName as pyTypeName,
} from "@convkit/formats";
import { formatPyFloat, isPySpace } from "@convkit/pycompat";

/** A passage of a response, as the year's protobuf holds it (score rounded to float32). */
export interface ProtoPassage {
  id: string;
  text: string;
  score: number;
  used: boolean;
  line: number;
}
/** A 2023 PTKB provenance entry (2024 has statement numbers). */
export interface ProtoPtkb {
  id: string;
  text: string;
  score: number;
  line: number;
}
export interface ProtoResponse {
  text: string;
  rank: number;
  passage_provenance: ProtoPassage[];
  ptkb_provenance: (ProtoPtkb | number)[];
  line: number;
}
export interface ProtoTurn {
  turn_id: string;
  responses: ProtoResponse[];
  line: number;
}
/** An iKATRun message of 2023 or 2024. */
export interface ProtoRun {
  run_name: string;
  run_type: string;
  eval_response: boolean;
  turns: ProtoTurn[];
}

/** ParseDict's refusal: its message (as protobuf words it) and the line of the value it stopped at. */
export class ProtoParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
    /** Python's OverflowError: not one ParseDict catches, so no "Failed to parse … field" around it. */
    readonly unwrapped = false,
  ) {
    super(message);
    this.name = "ProtoParseError";
  }
}

type Kind = "string" | "int32" | "float" | "bool" | Schema;
interface Field {
  name: string;
  json: string;
  kind: Kind;
  repeated?: boolean;
}
interface Schema {
  type: string;
  fields: Field[];
}
const f = (name: string, kind: Kind, repeated = false): Field => ({
  name,
  json: name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
  kind,
  repeated,
});
const passage: Schema = {
  type: "PassageProvenance",
  fields: [f("id", "string"), f("text", "string"), f("score", "float"), f("used", "bool")],
};
const ptkb2023: Schema = {
  type: "PTKBProvenance",
  fields: [f("id", "string"), f("text", "string"), f("score", "float")],
};
const response = (year: 2023 | 2024): Schema => ({
  type: "Response",
  fields: [
    f("text", "string"),
    f("rank", "int32"),
    f("passage_provenance", passage, true),
    year === 2023 ? f("ptkb_provenance", ptkb2023, true) : f("ptkb_provenance", "int32", true),
  ],
});
const runSchema = (year: 2023 | 2024): Schema => {
  const turn: Schema = {
    type: "Turn",
    fields: [f("turn_id", "string"), f("responses", response(year), true)],
  };
  return {
    type: "iKATRun",
    fields: [
      f("run_name", "string"),
      f("run_type", "string"),
      ...(year === 2024 ? [f("eval_response", "bool")] : []),
      f("turns", turn, true),
    ],
  };
};
const SCHEMAS = { 2023: runSchema(2023), 2024: runSchema(2024) };

/** `ParseDict(doc, iKATRun())` with the year's run.proto. */
export function parseProtoRun(doc: PyJsonDoc, year: 2023 | 2024): ProtoRun {
  return convertMessage(doc.value, doc.lines, SCHEMAS[year], "iKATRun", 1) as unknown as ProtoRun;
}

type Msg = Record<string, unknown> & { line: number };
const FLOAT_MAX = 3.4028234663852886e38;
const INT32 = [-(2n ** 31n), 2n ** 31n - 1n] as const;

/** The field a JSON key names: its JSON name first, then its proto name. */
function fieldOf(schema: Schema, name: string): Field | undefined {
  for (const x of schema.fields) if (x.json === name) return x;
  for (const x of schema.fields) if (x.name === name) return x;
  return undefined;
}

function defaults(schema: Schema, line: number): Msg {
  const m: Msg = { line };
  for (const fd of schema.fields)
    m[fd.name] = fd.repeated ? [] : fd.kind === "string" ? "" : fd.kind === "bool" ? false : 0;
  return m;
}

function convertMessage(v: PyJson, lines: PyJsonLines, schema: Schema, path: string, line: number): Msg {
  const m = defaults(schema, line);
  const noField = (name: string) =>
    new ProtoParseError(
      `Message type "${schema.type}" has no field named "${name}" at "${path}".\n Available Fields(except extensions): "[${schema.fields.map((x) => `'${x.json}'`).join(", ")}]"`,
      line,
    );
  if (typeof v === "string" || Array.isArray(v)) {
    // Python iterates it as if it were a dict's keys: empty is an empty message, anything else fails.
    const first = typeof v === "string" ? [...v][0] : v[0];
    if (first === undefined) return m;
    if (typeof first === "string" && !fieldOf(schema, first)) throw noField(first);
    const why =
      typeof first === "string"
        ? "list indices must be integers or slices, not str"
        : first !== null && typeof first === "object"
          ? `unhashable type: '${pyTypeName(first)}'`
          : `expected string or bytes-like object, got '${pyTypeName(first)}'`;
    throw new ProtoParseError(
      `Failed to parse ${typeof first === "string" ? first : pyStr(first)} field: ${why}.`,
      line,
    );
  }
  if (!(v instanceof Map)) throw new ProtoParseError(`'${pyTypeName(v)}' object is not iterable`, line);
  const at_ = lines.get(v);
  let k = 0;
  for (const [name, value] of v) {
    const at = at_?.[k++] ?? line;
    const fd = fieldOf(schema, name);
    if (!fd) throw noField(name);
    const wrap = (e: unknown): never => {
      if (e instanceof ProtoParseError && e.unwrapped) throw e;
      const inner = e instanceof ProtoParseError ? e : new ProtoParseError(String(e), at);
      throw new ProtoParseError(`Failed to parse ${name} field: ${inner.message}.`, inner.line);
    };
    try {
      if (value === null) {
        m[fd.name] = defaults(schema, 0)[fd.name];
        continue;
      }
      if (fd.repeated) {
        if (!Array.isArray(value))
          throw new ProtoParseError(
            `repeated field ${name} must be in [] which is ${pyStr(value)} at ${path}`,
            at,
          );
        const itemLines = lines.get(value);
        m[fd.name] = value.map((item, i) => {
          const ip = `${path}.${name}[${i}]`;
          const il = itemLines?.[i] ?? at;
          if (item === null)
            throw new ProtoParseError(
              `null is not allowed to be used as an element in a repeated field at ${ip}`,
              il,
            );
          return typeof fd.kind === "object"
            ? convertMessage(item, lines, fd.kind, ip, il)
            : scalar(item, fd.kind, ip, il);
        });
      } else m[fd.name] = scalar(value, fd.kind as string, `${path}.${name}`, at);
    } catch (e) {
      wrap(e);
    }
  }
  return m;
}

function scalar(v: PyJson, kind: string, path: string, line: number): string | number | boolean {
  const err = (msg: string) => new ProtoParseError(msg, line);
  if (kind === "string") {
    if (typeof v !== "string") throw err(`expected string or bytes-like object, got '${pyTypeName(v)}'`);
    if (!v.isWellFormed()) throw err(`Unpaired surrogate at ${path}`);
    return v;
  }
  if (kind === "bool") {
    if (typeof v !== "boolean") throw err(`Expected true or false without quotes at ${path}`);
    return v;
  }
  if (kind === "float") return Math.fround(toFloat(v, path, err, line));
  const n = toInt(v, path, err);
  if (n < INT32[0] || n > INT32[1]) throw err(`Value out of range: ${n}`);
  return Number(n);
}

function toFloat(v: PyJson, path: string, err: (m: string) => ProtoParseError, line: number): number {
  if (typeof v === "number") {
    if (Number.isNaN(v)) throw err(`Couldn't parse NaN, use quoted "NaN" instead at ${path}`);
    if (v === Number.POSITIVE_INFINITY)
      throw err(`Couldn't parse Infinity or value too large, use quoted "Infinity" instead at ${path}`);
    if (v === Number.NEGATIVE_INFINITY)
      throw err(`Couldn't parse -Infinity or value too small, use quoted "-Infinity" instead at ${path}`);
    if (v > FLOAT_MAX) throw err(`Float value too large at ${path}`);
    if (v < -FLOAT_MAX) throw err(`Float value too small at ${path}`);
    return v;
  }
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") {
    const x = Number(v);
    if (!Number.isFinite(x)) throw new ProtoParseError("int too large to convert to float", line, true);
    return x;
  }
  if (typeof v === "string") {
    if (v === "nan") throw err(`Couldn't parse float "nan", use "NaN" instead at ${path}`);
    const x = pyFloat(v);
    if (x === undefined) throw err(`Couldn't parse float: ${v} at ${path}`);
    return x;
  }
  throw err(`float() argument must be a string or a real number, not '${pyTypeName(v)}'`);
}

function toInt(v: PyJson, path: string, err: (m: string) => ProtoParseError): bigint {
  if (typeof v === "number") {
    if (!Number.isInteger(v)) throw err(`Couldn't parse integer: ${formatPyFloat(v)} at ${path}`);
    return BigInt(v);
  }
  if (typeof v === "boolean")
    throw err(`Bool value ${v ? "True" : "False"} is not acceptable for integer field at ${path}`);
  if (typeof v === "bigint") return v;
  if (typeof v === "string") {
    if (v.includes(" ")) throw err(`Couldn't parse integer: "${v}" at ${path}`);
    const n = pyInt(v);
    if (n !== undefined) return n;
    const x = pyFloat(v);
    if (x === undefined) throw err(`invalid literal for int() with base 10: ${pyStrRepr(v)}`);
    if (!Number.isInteger(x)) throw err(`Couldn't parse non-integer string: "${v}" at ${path}`);
    return BigInt(x);
  }
  throw err(`int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`);
}

/** Python's text of a number: Unicode decimal digits as ASCII, its whitespace trimmed. */
function asciiNumber(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x80) out += ch;
    else if (/\p{Nd}/u.test(ch)) {
      // Decimal digits come in runs of ten from 0: the value is the distance from the run's start, mod 10.
      let z = c;
      while (/\p{Nd}/u.test(String.fromCodePoint(z - 1))) z--;
      out += String((c - z) % 10);
    } else if (c <= 0xffff && isPySpace(c)) out += " ";
    else out += ch;
  }
  return out.trim();
}

/** Python `int(s)` (base 10), or undefined where it raises ValueError. */
export function pyInt(s: string): bigint | undefined {
  const t = asciiNumber(s);
  if (!/^[+-]?[0-9](_?[0-9])*$/.test(t)) return undefined;
  return BigInt(t.replace(/_/g, ""));
}

/** Python `float(s)`, or undefined where it raises ValueError. */
export function pyFloat(s: string): number | undefined {
  const t = asciiNumber(s);
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(t);
  if (special) {
    if (special[2]!.toLowerCase() === "nan") return Number.NaN;
    return special[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  const d = "[0-9](?:_?[0-9])*";
  if (!new RegExp(`^[+-]?(?:${d}(?:\\.(?:${d})?)?|\\.${d})(?:[eE][+-]?${d})?$`).test(t)) return undefined;
  return Number(t.replace(/_/g, ""));
}
