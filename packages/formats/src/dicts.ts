// The dict-shaped artifacts: ClariQ synthetic sets and eval dicts (pickles), Qulac hist012 dicts (JSON).
import {
  type ByteSource,
  describeFound,
  InputError,
  openInput,
  openPayload,
  type WriteOptions,
  writeAtomic,
} from "@convkit/io";
import { Fields, inputMismatch } from "@convkit/json";
import type { PyValue } from "@convkit/pickle";
import { PyFloat, readPickle, scanDictTree, UnsupportedShape } from "@convkit/pickle";
import { formatPyFloat, pythonJsonString } from "@convkit/pycompat";
import { streamJsonItems } from "./json-stream.js";
import type {
  EvalEntry,
  EvalPair,
  QaTurn,
  QulacEvalEntry,
  QulacHistRecord,
  SyntheticRecord,
} from "./records.js";

/** The metrics of ClariQ's and Qulac's eval dicts, in upstream order. */
export const EVAL_METRICS = [
  "NDCG1",
  "NDCG3",
  "NDCG5",
  "NDCG10",
  "NDCG20",
  "P1",
  "P3",
  "P5",
  "P10",
  "P20",
  "MRR100",
] as const;

/** `v` undefined: a dict's key that is not there. */
function shapeError(file: string, path: string, expected: string, v: PyValue | undefined): never {
  throw new InputError(file, {}, `${expected} at ${path}`, v === undefined ? "nothing" : pyTypeName(v));
}

/** Python's name for the type of a value read from a pickle. */
export function pyTypeName(v: PyValue): string {
  if (v === null) return "None";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "string") return "str";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "bigint") return "int";
  if (v instanceof Map) return "dict";
  if (Array.isArray(v)) return "list";
  if (v instanceof Uint8Array) return "bytes";
  if (v instanceof PyFloat) return "float";
  if (v instanceof Set) return "set";
  return "tuple";
}

function str(file: string, v: PyValue | undefined, path: string): string {
  if (typeof v !== "string") shapeError(file, path, "a str", v);
  return v;
}
function int(file: string, v: PyValue, path: string): number {
  if (typeof v !== "number" || !Number.isInteger(v)) shapeError(file, path, "an int", v);
  return v;
}
function dict(file: string, v: PyValue, path: string): Map<PyValue, PyValue> {
  if (!(v instanceof Map)) shapeError(file, path, "a dict", v);
  return v;
}

function turns(file: string, v: PyValue, path: string): QaTurn[] {
  if (!Array.isArray(v)) shapeError(file, path, "a list of {question, answer}", v);
  return v.map((t, i) => {
    const d = dict(file, t, `${path}[${i}]`);
    return {
      question: str(file, d.get("question"), `${path}[${i}]['question']`),
      answer: str(file, d.get("answer"), `${path}[${i}]['answer']`),
    };
  });
}

/** Records of a ClariQ synthetic dict `{record_id: {topic_id, facet_id, …}}`, in dict order. */
export function* syntheticRecords(file: string, d: PyValue): Iterable<SyntheticRecord> {
  for (const [k, v] of dict(file, d, "the top level")) {
    const path = `[${describeFound(String(k))}]`;
    const r = dict(file, v, path);
    yield {
      record_id: int(file, k, `a key ${path}`),
      topic_id: int(file, r.get("topic_id") ?? null, `${path}['topic_id']`),
      facet_id: str(file, r.get("facet_id") ?? null, `${path}['facet_id']`),
      initial_request: str(file, r.get("initial_request") ?? null, `${path}['initial_request']`),
      question: str(file, r.get("question") ?? null, `${path}['question']`),
      answer: str(file, r.get("answer") ?? null, `${path}['answer']`),
      conversation_context: turns(
        file,
        r.get("conversation_context") ?? null,
        `${path}['conversation_context']`,
      ),
      context_id: int(file, r.get("context_id") ?? null, `${path}['context_id']`),
    };
  }
}

/** The `[record_id, value]` item the ClariQ dict holds for a record (upstream field order). */
export function syntheticItem(r: SyntheticRecord): [PyValue, PyValue] {
  return [
    r.record_id,
    {
      topic_id: r.topic_id,
      facet_id: r.facet_id,
      initial_request: r.initial_request,
      question: r.question,
      answer: r.answer,
      conversation_context: r.conversation_context.map((t) => ({ question: t.question, answer: t.answer })),
      context_id: r.context_id,
    },
  ];
}

/** One `{'no_answer': x, 'with_answer': y}` of an eval dict, as read (a Map, not copied). */
export type EvalPairMap = ReadonlyMap<string, number>;

/** An eval dict: `metric → context → question|MAX|MIN → {no_answer, with_answer}`, the unpickled Maps themselves. */
export type EvalDict = ReadonlyMap<string, ReadonlyMap<string | number, ReadonlyMap<string, EvalPairMap>>>;

/** The two values of an eval-dict entry. */
export function evalPair(m: EvalPairMap): EvalPair {
  return { no_answer: m.get("no_answer")!, with_answer: m.get("with_answer")! };
}

/**
 * Checks that an unpickled value is an eval dict and returns it typed, without copying (the
 * multi-turn dicts hold millions of values). Any other shape is an {@link InputError} naming the
 * path and the Python type found, so a wrong pickle gets one clear line.
 */
export function toEvalDict(file: string, d: PyValue): EvalDict {
  assertEvalDict(file, d);
  return d;
}

/** Walks the whole tree: every key and pair checked (paths are built only for the error message). */
function assertEvalDict(file: string, d: PyValue): asserts d is PyValue & EvalDict {
  for (const [metric, contexts] of dict(file, d, "the top level")) {
    const m = str(file, metric, "a metric key");
    for (const [ctx, questions] of dict(file, contexts, `[${JSON.stringify(m)}]`)) {
      if (typeof ctx !== "string" && typeof ctx !== "number")
        shapeError(file, `a context key of ${m}`, "a str or int", ctx);
      for (const [q, pair] of dict(file, questions, `[${JSON.stringify(m)}][${JSON.stringify(ctx)}]`)) {
        const path = () => `[${JSON.stringify(m)}][${JSON.stringify(ctx)}][${JSON.stringify(q)}]`;
        if (typeof q !== "string")
          shapeError(file, `a question key of [${JSON.stringify(m)}][${JSON.stringify(ctx)}]`, "a str", q);
        const p = pair instanceof Map ? pair : dict(file, pair, path());
        const a = p.get("no_answer");
        const b = p.get("with_answer");
        if (typeof a !== "number" || typeof b !== "number" || p.size !== 2) {
          if (typeof a !== "number") shapeError(file, `${path()}['no_answer']`, "a float", a ?? null);
          if (typeof b !== "number") shapeError(file, `${path()}['with_answer']`, "a float", b ?? null);
          if (p.size !== 2) shapeError(file, path(), "exactly no_answer and with_answer", pair);
        }
      }
    }
  }
}

/** Flattens an eval dict into entries (metric, context, question, no_answer, with_answer). */
export function* evalEntries(d: EvalDict): Iterable<EvalEntry> {
  for (const [metric, cm] of d)
    for (const [context, qm] of cm)
      for (const [question, p] of qm) yield { metric, context, question, ...evalPair(p) };
}

/** The PyValue of an eval dict with every value a float (so `0.0` stays `0.0` in the pickle). */
export function evalDictValue(d: EvalDict): PyValue {
  const out = new Map<PyValue, PyValue>();
  for (const [metric, cm] of d) {
    const c = new Map<PyValue, PyValue>();
    for (const [ctx, qm] of cm) {
      const q = new Map<PyValue, PyValue>();
      for (const [qid, p] of qm) {
        const { no_answer, with_answer } = evalPair(p);
        q.set(qid, { no_answer: new PyFloat(no_answer), with_answer: new PyFloat(with_answer) });
      }
      c.set(ctx, q);
    }
    out.set(metric, c);
  }
  return out;
}

/**
 * Streams an eval dict pickle (plain, tar.gz or split) without building it: `onValue` gets every
 * (metric, context, question, no_answer, with_answer) in dict order. Memory stays flat, which
 * makes evaluating against the 40 MB multi-turn dicts several times faster than unpickling them.
 */
export async function scanEvalDict(
  /** A path (plain, tar.gz or split), or a source already opened (e.g. prefetched). */
  path: string | ByteSource,
  onValue: (
    metric: string,
    context: string | number,
    question: string,
    noAnswer: number,
    withAnswer: number,
  ) => void,
  /**
   * The questions of a context worth reporting (undefined: all; a short list when each context
   * has its own few); the rest are skipped unread.
   */
  questionsOf?: (
    metric: string,
    context: string | number,
  ) => ReadonlySet<string> | readonly string[] | undefined,
): Promise<void> {
  // Fast path: an allocation-free scan of the CPython layout; anything unusual goes the general way.
  let emitted = 0;
  try {
    await scanDictTree(
      typeof path === "string" ? await openPayload(path) : path,
      3,
      (p, names, values, n) => {
        let na: number | undefined;
        let wa: number | undefined;
        if (n === 2 && names[0] === "no_answer" && names[1] === "with_answer") {
          na = values[0];
          wa = values[1];
        } else
          for (let i = 0; i < n; i++) {
            if (names[i] === "no_answer") na = values[i];
            else if (names[i] === "with_answer") wa = values[i];
          }
        const metric = p[0];
        const ctx = p[1];
        const q = p[2];
        if (
          na === undefined ||
          wa === undefined ||
          typeof metric !== "string" ||
          typeof q !== "string" ||
          ctx === undefined
        ) {
          throw new UnsupportedShape("not an eval-dict leaf");
        }
        emitted++;
        onValue(metric, ctx as string | number, q, na, wa);
      },
      questionsOf ? (branch) => questionsOf(branch[0] as string, branch[1] as string | number) : undefined,
    );
    return;
  } catch (e) {
    if (!(e instanceof UnsupportedShape)) throw e;
    // Values already handed on would be handed on twice: only fall back before the first one.
    if (emitted > 0)
      throw new InputError(
        typeof path === "string" ? path : path.name,
        {},
        "an eval dict of one consistent shape",
        `a change of shape after ${emitted} values (${e.message})`,
      );
  }
  await scanEvalDictGeneral(path, onValue);
}

/** The general way: unpickle the whole dict, check its shape, walk it. */
async function scanEvalDictGeneral(
  path: string | ByteSource,
  onValue: (
    metric: string,
    context: string | number,
    question: string,
    noAnswer: number,
    withAnswer: number,
  ) => void,
): Promise<void> {
  // A consumed source cannot be read twice: the general way reopens by path.
  if (typeof path !== "string") {
    throw new InputError(
      path.name,
      {},
      "an eval dict in CPython's usual layout (pass a path for others)",
      "another layout",
    );
  }
  const src = await openPayload(path);
  for (const e of evalEntries(toEvalDict(src.name, await readPickle(src)))) {
    onValue(e.metric, e.context, e.question, e.no_answer, e.with_answer);
  }
}

/**
 * Records of a Qulac `qulac_hist012_dict` JSON file, streamed in batches. Each record is checked
 * field by field (every field a string, as Qulac's README and qulac.json have them): a field of
 * another type is one InputError naming the file and the field's path (`"18-2-1-2-10-1".query`).
 */
export async function* readQulacHistDict(source: ByteSource | string): AsyncIterable<QulacHistRecord[]> {
  const src = typeof source === "string" ? await openInput(source) : source;
  const mismatch = inputMismatch(src.name);
  for await (const batch of streamJsonItems<unknown>(src, { kind: "object" })) {
    yield batch.map(({ key, value }) => {
      const f = Fields.of(value, mismatch, JSON.stringify(String(key)));
      return {
        record_id: String(key),
        history_id: f.string("history_id"),
        history_list: f
          .objects("history_list")
          .map((t) => ({ question: t.string("question"), answer: t.string("answer") })),
        query: f.string("query"),
        question: f.string("question"),
        answer: f.string("answer"),
      };
    });
  }
}

function histRecordJson(r: QulacHistRecord): string {
  const hl = r.history_list
    .map((t) => `{"question": ${pythonJsonString(t.question)}, "answer": ${pythonJsonString(t.answer)}}`)
    .join(", ");
  return `{"history_id": ${pythonJsonString(r.history_id)}, "history_list": [${hl}], "query": ${pythonJsonString(r.query)}, "question": ${pythonJsonString(r.question)}, "answer": ${pythonJsonString(r.answer)}}`;
}

/** Writes a `qulac_hist012_dict` JSON object (as `json.dump` writes it), streaming. */
export async function writeQulacHistDict(
  target: string,
  batches: AsyncIterable<readonly QulacHistRecord[]> | Iterable<readonly QulacHistRecord[]>,
  options?: WriteOptions,
): Promise<number> {
  let n = 0;
  await writeAtomic(
    target,
    async (sink) => {
      await sink.write("{");
      for await (const b of batches) {
        let s = "";
        for (const r of b)
          s += `${n++ === 0 ? "" : ", "}${pythonJsonString(r.record_id)}: ${histRecordJson(r)}`;
        await sink.write(s);
      }
      await sink.write("}");
    },
    options,
  );
  return n;
}

/** Writes Qulac's `eval_hist012_dict` layout `{metric: {record_id_with_flag: value}}` as JSON. */
export async function writeQulacEvalDict(
  target: string,
  entries: Iterable<QulacEvalEntry>,
  options?: WriteOptions,
): Promise<void> {
  const by = new Map<string, string[]>();
  for (const e of entries) {
    const text = `${pythonJsonString(e.record_id)}: ${formatPyFloat(e.value)}`;
    const l = by.get(e.metric);
    if (l) l.push(text);
    else by.set(e.metric, [text]);
  }
  await writeAtomic(
    target,
    async (sink) => {
      let first = true;
      await sink.write("{");
      for (const [m, l] of by) {
        await sink.write(`${first ? "" : ", "}${pythonJsonString(m)}: {${l.join(", ")}}`);
        first = false;
      }
      await sink.write("}");
    },
    options,
  );
}
