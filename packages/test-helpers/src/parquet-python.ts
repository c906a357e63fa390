// A Parquet file as Python users open it (pyarrow, pandas, polars, DuckDB, Hugging Face datasets; read_parquet.py, one process for a test run), and checked against a JSONL file row for row, field for field, type for type.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createReadStream, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { createGunzip } from "node:zlib";
import { tempDir } from "./shared.js";

/** The Python libraries a Parquet output must open in, in the order read_parquet.py runs them. */
export const PYTHON_PARQUET_READERS = ["pyarrow", "pandas", "polars", "duckdb", "datasets"] as const;
export type PythonParquetReader = (typeof PYTHON_PARQUET_READERS)[number];

/** One column as a reader saw it. */
export interface PythonParquetColumn {
  name: string;
  /** As the library names it: `list<element: struct<…>>`, `object`, `List(Struct({…}))`, `STRUCT(…)[]`, `List({…})`. */
  type: string;
  /** In one vocabulary for all readers: `int64`, `string`, `double`, `boolean`, `list<struct<question: string, answer: string>>`. */
  normalized: string;
}

/** What read_parquet.py streams, one event per line. */
export type PythonParquetEvent =
  | { kind: "columns"; reader: PythonParquetReader; version: string; columns: PythonParquetColumn[] }
  | { kind: "row"; reader: PythonParquetReader; values: unknown[] }
  | { kind: "end"; reader: PythonParquetReader; rows: number; seconds: number }
  | { kind: "error"; reader: PythonParquetReader; message: string };

/** One reader's whole read (readParquetInPython; small files). */
export interface PythonParquetTable {
  reader: PythonParquetReader;
  version: string;
  columns: PythonParquetColumn[];
  rows: Record<string, unknown>[];
  seconds: number;
}

/** The script, shipped in src/ (found from src/ and dist/ alike). */
const READ_PARQUET_PY = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "read_parquet.py");

/**
 * Numbers exactly as written, wherever JSON.parse would round them: an int beyond 2^53 (Python
 * prints all its digits) and an integral double beyond it (`1e+16` from Python's repr,
 * `10000000000000000` from JavaScript) both become `{ $int: "digits" }`, and NaN / ±Infinity
 * (Python's json) `{ $float: "NaN" }`; every other number is the double JSON.parse gives, which
 * for a shortest-repr literal is exactly the double written. Strings are matched first, so digits
 * inside them are left alone.
 */
export function parseJsonExact(text: string): unknown {
  if (!/\d{16}|[eE]\+?\d|NaN|Infinity/.test(text)) return JSON.parse(text);
  const tokens = /"(?:[^"\\]|\\.)*"|-?Infinity|NaN|-?\d+(\.\d+)?([eE][+-]?\d+)?/g;
  return JSON.parse(
    text.replace(tokens, (tok: string, frac?: string, exp?: string) => {
      if (tok.startsWith('"')) return tok;
      if (tok.endsWith("Infinity") || tok === "NaN") return `{"$float":"${tok}"}`;
      const v = Number(tok);
      if (frac === undefined && exp === undefined)
        return Number.isSafeInteger(v) ? tok : `{"$int":"${BigInt(tok).toString()}"}`;
      return Number.isInteger(v) && !Number.isSafeInteger(v) ? `{"$int":"${BigInt(v).toString()}"}` : tok;
    }),
  );
}

/**
 * read_parquet.py --serve, started once per test process (the five libraries' imports take 3 s,
 * which each of 40 files would pay again), answering one file at a time. Its temp folder (datasets'
 * cache and home) is ours, removed when it stops.
 */
interface ReaderServer {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
  stderr: () => string;
  stop: () => void;
}

let server: ReaderServer | undefined;
/** The request under way: the next waits for it (one file at a time through one pipe). */
let busy: Promise<void> = Promise.resolve();

function startServer(): ReaderServer {
  const tmp = tempDir("convkit-read-parquet-");
  const child = spawn("python3", [READ_PARQUET_PY, "--serve"], {
    env: { ...process.env, TMPDIR: tmp },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d: string) => {
    stderr = (stderr + d).slice(-4000);
  });
  child.on("error", () => {}); // seen as the end of its lines
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    rmSync(tmp, { recursive: true, force: true });
    process.off("exit", stop);
  };
  process.on("exit", stop);
  const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })[
    Symbol.asyncIterator
  ]();
  return { child, lines, stderr: () => stderr, stop };
}

/**
 * Reads `path` with read_parquet.py (python3 on PATH: declare `requires("python-parquet")`) and
 * yields what each reader saw as it comes: memory stays one line, whatever the file's size. Fails
 * when the answer ends otherwise than with every reader's "end" or "error" (a crash, a kill). A
 * caller that stops early stops the script (the next call starts another).
 */
export async function* streamParquetInPython(
  path: string,
  readers: readonly PythonParquetReader[] = PYTHON_PARQUET_READERS,
): AsyncGenerator<PythonParquetEvent> {
  const before = busy;
  let release = () => {};
  busy = new Promise((r) => {
    release = r;
  });
  await before;
  server ??= startServer();
  const { child, lines, stderr, stop } = server;
  let answered = false;
  let finished = 0;
  let reader: PythonParquetReader | undefined;
  let columns: string[] | undefined;
  try {
    child.stdin.write(`${JSON.stringify({ path, readers })}\n`);
    for (let next = await lines.next(); ; next = await lines.next()) {
      if (next.done)
        throw new Error(
          `read_parquet.py ${path}: ended (exit ${child.exitCode ?? child.signalCode}) after ${finished} of ${readers.length} readers: ${stderr().trim()}`,
        );
      const line = next.value;
      if (!line.startsWith("#")) {
        if (!reader || !columns)
          throw new Error(`read_parquet.py: a row before any columns: ${line.slice(0, 200)}`);
        const row = parseJsonExact(line);
        if (Array.isArray(row)) yield { kind: "row", reader, values: row };
        else {
          // A row as the library writes JSON itself (polars): its fields, in column order.
          const obj = row as Record<string, unknown>;
          const keys = Object.keys(obj);
          if (keys.length !== columns.length || columns.some((c) => !(c in obj)))
            throw new Error(
              `read_parquet.py: ${reader}'s row has fields ${keys.join(", ")}, not ${columns.join(", ")}`,
            );
          yield { kind: "row", reader, values: columns.map((c) => obj[c]) };
        }
        continue;
      }
      const head = JSON.parse(line.slice(1)) as Record<string, unknown>;
      if (typeof head.done === "string") {
        if (finished !== readers.length)
          throw new Error(`read_parquet.py ${path}: done after ${finished} of ${readers.length} readers`);
        answered = true;
        return;
      }
      if (typeof head.reader === "string") {
        reader = head.reader as PythonParquetReader;
        const cols = head.columns as PythonParquetColumn[];
        columns = cols.map((c) => c.name);
        yield { kind: "columns", reader, version: String(head.version), columns: cols };
      } else if (typeof head.end === "string") {
        finished++;
        yield {
          kind: "end",
          reader: head.end as PythonParquetReader,
          rows: Number(head.rows),
          seconds: Number(head.seconds),
        };
      } else if (typeof head.error === "string") {
        finished++;
        yield { kind: "error", reader: head.error as PythonParquetReader, message: String(head.message) };
      } else throw new Error(`read_parquet.py: unexpected line ${line.slice(0, 200)}`);
      if (typeof head.reader !== "string") {
        reader = undefined;
        columns = undefined;
      }
    }
  } finally {
    // Stopped mid-answer (a failure, a caller that left): the pipe holds the rest of it.
    if (!answered) {
      stop();
      server = undefined;
    }
    release();
  }
}

/**
 * Every reader's columns and rows (rows as objects keyed by column name) of a small file; a reader
 * that fails throws, naming it. For files of millions of rows use streamParquetInPython.
 */
export async function readParquetInPython(
  path: string,
  readers: readonly PythonParquetReader[] = PYTHON_PARQUET_READERS,
): Promise<PythonParquetTable[]> {
  const out: PythonParquetTable[] = [];
  const errors: string[] = [];
  let cur: PythonParquetTable | undefined;
  for await (const ev of streamParquetInPython(path, readers)) {
    if (ev.kind === "columns") {
      cur = { reader: ev.reader, version: ev.version, columns: ev.columns, rows: [], seconds: 0 };
      out.push(cur);
    } else if (ev.kind === "row" && cur)
      cur.rows.push(Object.fromEntries(cur.columns.map((c, i) => [c.name, ev.values[i]])));
    else if (ev.kind === "end" && cur) cur.seconds = ev.seconds;
    else if (ev.kind === "error") errors.push(`${ev.reader}: ${ev.message}`);
  }
  if (errors.length > 0) throw new Error(`${path} does not open in Python: ${errors.join("; ")}`);
  return out;
}

/** The records of a JSONL file (`.gz` unpacked), one line at a time, parsed as parseJsonExact does. */
async function* jsonlRecords(path: string): AsyncGenerator<{ line: number; record: unknown }> {
  const raw = createReadStream(path);
  const input = path.endsWith(".gz") ? raw.pipe(createGunzip()) : raw;
  let line = 0;
  try {
    for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      line++;
      if (text !== "") yield { line, record: parseJsonExact(text) };
    }
  } finally {
    raw.destroy();
  }
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
};

/** What one reader read (expectParquetEqualsJsonl's answer, for timings). */
export interface ParquetReadCheck {
  reader: PythonParquetReader;
  version: string;
  rows: number;
  seconds: number;
}

/**
 * Asserts that every Python reader opens `parquetPath` with no schema given and sees the columns
 * of `expectedTypes`, in its order, each of its normalized type (`{record_id: "int64",
 * conversation_context: "list<struct<question: string, answer: string>>"}`), and the records of
 * `jsonlPath` in the same order, field for field (no field more or less; ints exact, doubles
 * exact, null as null). Streams both sides: fine for files of millions of rows. Throws one error
 * listing each reader's first difference; answers each reader's row count and time.
 *
 * `options.readers`: some of the readers only; `options.typesIn`: where a library cannot hold the
 * declared type, what it shows instead, said out loud (`{pandas: {value: "double"}}`: pandas
 * turns an int64 column with nulls into float64).
 */
export async function expectParquetEqualsJsonl(
  parquetPath: string,
  jsonlPath: string,
  expectedTypes: Readonly<Record<string, string>>,
  options: {
    readers?: readonly PythonParquetReader[];
    typesIn?: Partial<Record<PythonParquetReader, Readonly<Record<string, string>>>>;
  } = {},
): Promise<ParquetReadCheck[]> {
  const names = Object.keys(expectedTypes);
  const wantedIn = (reader: PythonParquetReader): string => {
    const types = { ...expectedTypes, ...options.typesIn?.[reader] };
    return names.map((n) => `${n}: ${types[n]}`).join(", ");
  };
  const failures: string[] = [];
  const done: ParquetReadCheck[] = [];
  let jsonl: AsyncGenerator<{ line: number; record: unknown }> | undefined;
  let failed = false; // this reader's first difference is kept; the rest of its rows are drained
  let version = "";
  let row = 0;
  const fail = (reader: string, msg: string) => {
    failures.push(`${reader}: ${msg}`);
    failed = true;
  };
  try {
    for await (const ev of streamParquetInPython(parquetPath, options.readers)) {
      if (ev.kind === "columns") {
        failed = false;
        row = 0;
        version = ev.version;
        await jsonl?.return(undefined);
        jsonl = jsonlRecords(jsonlPath);
        const got = ev.columns.map((c) => `${c.name}: ${c.normalized}`).join(", ");
        const wanted = wantedIn(ev.reader);
        const types = { ...expectedTypes, ...options.typesIn?.[ev.reader] };
        const fitting =
          ev.columns.length === names.length &&
          ev.columns.every(
            (c, k) => c.name === names[k] && typeFits(ev.reader, c.normalized, types[c.name]!),
          );
        if (!fitting)
          fail(
            ev.reader,
            `columns {${got}} (as ${ev.reader} names them: ${ev.columns.map((c) => `${c.name}: ${c.type}`).join(", ")}), expected {${wanted}}`,
          );
      } else if (ev.kind === "row") {
        row++;
        if (failed || !jsonl) continue;
        const next = await jsonl.next();
        if (next.done) {
          fail(ev.reader, `row ${row} ${show(ev.values)}: ${jsonlPath} has only ${row - 1} records`);
          continue;
        }
        const { line, record } = next.value;
        if (record === null || typeof record !== "object" || Array.isArray(record)) {
          fail(ev.reader, `${jsonlPath}:${line}: not a JSON object`);
          continue;
        }
        const rec = record as Record<string, unknown>;
        const extra = Object.keys(rec).filter((k) => !names.includes(k));
        if (extra.length > 0) {
          fail(
            ev.reader,
            `row ${row}: ${jsonlPath}:${line} has fields ${extra.join(", ")} the Parquet file lacks`,
          );
          continue;
        }
        // A field the JSONL leaves out is the table's null (a nullable column).
        const i = names.findIndex((n, j) =>
          n in rec ? !isDeepStrictEqual(zeroSigned(ev.values[j]), zeroSigned(rec[n])) : ev.values[j] !== null,
        );
        if (i >= 0)
          fail(
            ev.reader,
            `row ${row}, ${names[i]}: ${show(ev.values[i])} in Parquet, ${names[i]! in rec ? show(rec[names[i]!]) : "no such field"} at ${jsonlPath}:${line}`,
          );
      } else if (ev.kind === "end") {
        if (!failed && jsonl) {
          const next = await jsonl.next();
          if (!next.done)
            fail(ev.reader, `${ev.rows} rows, but ${jsonlPath}:${next.value.line} is one more record`);
        }
        done.push({ reader: ev.reader, version, rows: ev.rows, seconds: ev.seconds });
      } else fail(ev.reader, `does not open ${parquetPath}: ${ev.message}`);
    }
  } finally {
    await jsonl?.return(undefined);
  }
  if (failures.length > 0) throw new Error(`${parquetPath} against ${jsonlPath}:\n${failures.join("\n")}`);
  return done;
}

/** A type text split at its top level: `list<X>` → list [X]; `struct<a: X, b: Y>` → struct [a: X, b: Y]. */
function splitType(t: string): { head: string; parts: { name: string; type: string }[] } | undefined {
  const m = /^(list|struct)<(.*)>$/.exec(t);
  if (!m) return undefined;
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  const body = m[2]!;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "<") depth++;
    else if (body[i] === ">") depth--;
    else if (body[i] === "," && depth === 0) {
      parts.push(body.slice(from, i).trim());
      from = i + 1;
    }
  }
  parts.push(body.slice(from).trim());
  return {
    head: m[1]!,
    parts: parts.map((p) => {
      const c = m[1] === "struct" ? /^([^:<]+): (.*)$/.exec(p) : null;
      return c ? { name: c[1]!, type: c[2]! } : { name: "", type: p };
    }),
  };
}

/**
 * Whether a reader's normalized type holds the declared one. A reader that infers types from
 * values (pandas' object columns) says `null` where every value is null or every list empty: that
 * stands for any type. pandas holds an int64 column with nulls as float64 (its own limit; the
 * other readers see the file's int64).
 */
function typeFits(reader: PythonParquetReader, found: string, wanted: string): boolean {
  if (found === wanted || found === "null") return true;
  if (reader === "pandas" && wanted === "int64" && found === "double") return true;
  const f = splitType(found);
  const w = splitType(wanted);
  if (!f || !w || f.head !== w.head) return false;
  // An empty list's element, inferred, is null: it stands for the whole declared element.
  if (f.head === "list" && f.parts[0]?.type === "null") return true;
  return (
    f.parts.length === w.parts.length &&
    f.parts.every((p, i) => p.name === w.parts[i]!.name && typeFits(reader, p.type, w.parts[i]!.type))
  );
}

/**
 * A value with -0 as 0: a Parquet double keeps a score's -0.0 where the JSONL of the same rows
 * prints 0 (JSON.stringify(-0) is "0"); the two files hold the same number there.
 */
function zeroSigned(v: unknown): unknown {
  if (Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(zeroSigned);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, zeroSigned(x)]));
  return v;
}
