// Eval dicts written from per-metric spools: ClariQ's pickle (in a tar.gz), JSON, and a long Parquet table.
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdir, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { EVAL_ENTRY_SCHEMA, MULTI_TURN_EVAL_ENTRY_SCHEMA } from "@convkit/formats";
import { type ByteSink, OutputError, registerTemp, tarGzFile, withTempDir, writeAtomic } from "@convkit/io";
import { type Codec, ParquetTableWriter } from "@convkit/parquet";
import { PickleWriter } from "@convkit/pickle";
import { formatPyFloat, pythonJsonString } from "@convkit/pycompat";
import { DICT_METRICS, type Pair } from "./topic-eval.js";

/** One spooled context: its key and, per question, [no_answer, with_answer]. */
type Spooled = [string | number, [string, Pair][]];

/** What the dict writers read: per metric, the spooled contexts in output order. */
export interface SpoolReader {
  read(m: number): AsyncIterable<Spooled>;
}

/**
 * Per-metric spool files: results arrive topic by topic but the dicts are metric-major, so each
 * metric's contexts go to their own file, read back in order by the writers. Memory stays flat.
 * Records are binary (floats as their 8 bytes: exact, and no formatting or parsing of numbers):
 * key (0 + f64 int | 1 + str), question count u32, then per question str, f64, f64; a str is
 * u32 byte length + UTF-8.
 */
export class MetricSpools implements SpoolReader {
  private readonly sinks: WriteStream[] = [];
  private readonly unregister: (() => void)[] = [];
  /** The first failure of a spool (a full disk): every wait on the spools ends with it. */
  private error: Error | undefined;
  private readonly fail = new Set<(e: Error) => void>();
  readonly files: string[];
  contexts = 0;

  constructor(prefix: string) {
    this.files = DICT_METRICS.map(([m]) => `${prefix}.${m}.spool`);
  }

  /** Opens the spools (the output's folder made first, as the other jobs make theirs). */
  async open(): Promise<void> {
    await mkdir(dirname(this.file(0)), { recursive: true });
    for (const f of this.files) {
      // Removed on a signal too (a killed run left its spools behind).
      this.unregister.push(registerTemp(f));
      const s = createWriteStream(f);
      s.on("error", (e) => {
        this.error ??= OutputError.of(f, e);
        for (const r of this.fail) r(this.error);
        this.fail.clear();
      });
      this.sinks.push(s);
      // Opened before anything is written: a failure is this call's, not an unhandled stream event.
      await this.wait(s, "open");
    }
  }

  /** Appends one topic's contexts for every metric. */
  async add(
    perMetric: readonly (readonly [string | number, readonly (readonly [string, Pair])[]])[][],
  ): Promise<void> {
    this.contexts += perMetric[0]?.length ?? 0;
    await Promise.all(
      perMetric.map((ctxs, m) => {
        if (ctxs.length === 0) return undefined;
        if (this.error) throw this.error;
        const sink = this.sinks[m];
        if (sink === undefined) throw new RangeError(`no spool for metric ${m}`);
        return sink.write(encodeSpooled(ctxs)) ? undefined : this.wait(sink, "drain");
      }),
    );
  }

  /** The spool file of metric `m` (one per metric of DICT_METRICS). */
  private file(m: number): string {
    const f = this.files[m];
    if (f === undefined) throw new RangeError(`no spool for metric ${m}`);
    return f;
  }

  /** Waits for `event` of spool stream `s`, or the first failure of any spool (a drain never comes after one). */
  private wait(s: WriteStream, event: "open" | "drain" | "close"): Promise<void> {
    if (this.error) return Promise.reject(this.error);
    return new Promise<void>((resolve, reject) => {
      this.fail.add(reject);
      s.once(event, () => {
        this.fail.delete(reject);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    await Promise.all(
      this.sinks.map((s) => {
        if (s.closed) return undefined;
        const closed = this.wait(s, "close");
        s.end();
        return closed;
      }),
    );
    if (this.error) throw this.error;
  }

  async remove(): Promise<void> {
    await Promise.all(this.files.map((f) => unlink(f).catch(() => {})));
    for (const u of this.unregister.splice(0)) u();
  }

  /** Spooled contexts of metric `m`, in order. */
  async *read(m: number): AsyncIterable<Spooled> {
    let rest: Buffer = Buffer.alloc(0);
    for await (const chunk of createReadStream(this.file(m), { highWaterMark: 1 << 20 })) {
      const buf = rest.length === 0 ? (chunk as Buffer) : Buffer.concat([rest, chunk as Buffer]);
      let at = 0;
      for (;;) {
        const r = decodeSpooled(buf, at);
        if (r === undefined) break;
        yield r[0];
        at = r[1];
      }
      rest = buf.subarray(at);
    }
    if (rest.length > 0) throw new Error(`${this.files[m]}: a cut spool record`);
  }
}

function encodeSpooled(
  ctxs: readonly (readonly [string | number, readonly (readonly [string, Pair])[]])[],
): Buffer {
  let size = 0;
  for (const [key, values] of ctxs) {
    size += 1 + (typeof key === "number" ? 8 : 4 + Buffer.byteLength(key)) + 4;
    for (const [q] of values) size += 4 + Buffer.byteLength(q) + 16;
  }
  const b = Buffer.allocUnsafe(size);
  let at = 0;
  const str = (s: string) => {
    const n = b.write(s, at + 4);
    b.writeUInt32LE(n, at);
    at += 4 + n;
  };
  for (const [key, values] of ctxs) {
    if (typeof key === "number") {
      b[at++] = 0;
      at = b.writeDoubleLE(key, at);
    } else {
      b[at++] = 1;
      str(key);
    }
    at = b.writeUInt32LE(values.length, at);
    for (const [q, [na, wa]] of values) {
      str(q);
      at = b.writeDoubleLE(na, at);
      at = b.writeDoubleLE(wa, at);
    }
  }
  return b;
}

/** The record at `at` and the position after it, or undefined when the buffer ends within it. */
function decodeSpooled(b: Buffer, at: number): [Spooled, number] | undefined {
  const str = (): string | undefined => {
    if (at + 4 > b.length) return undefined;
    const n = b.readUInt32LE(at);
    if (at + 4 + n > b.length) return undefined;
    const s = b.toString("utf8", at + 4, at + 4 + n);
    at += 4 + n;
    return s;
  };
  if (at >= b.length) return undefined;
  let key: string | number | undefined;
  if (b[at++] === 0) {
    if (at + 8 > b.length) return undefined;
    key = b.readDoubleLE(at);
    at += 8;
  } else key = str();
  if (key === undefined || at + 4 > b.length) return undefined;
  const count = b.readUInt32LE(at);
  at += 4;
  const values: [string, Pair][] = [];
  for (let i = 0; i < count; i++) {
    const q = str();
    if (q === undefined || at + 16 > b.length) return undefined;
    values.push([q, [b.readDoubleLE(at), b.readDoubleLE(at + 8)]]);
    at += 16;
  }
  return [[key, values], at];
}

/** ClariQ's JSON layout `{metric: {context: {question: {"no_answer": x, "with_answer": y}}}}`, as `json.dumps` writes it. */
export async function writeJsonDict(target: string, spools: SpoolReader): Promise<void> {
  await writeAtomic(target, async (sink) => {
    await sink.write("{");
    for (const [m, [name]] of DICT_METRICS.entries()) {
      await sink.write(`${m ? ", " : ""}${pythonJsonString(name)}: {`);
      let first = true;
      let buf = "";
      for await (const [key, values] of spools.read(m)) {
        buf += `${first ? "" : ", "}${pythonJsonString(String(key))}: {${values
          .map(
            ([q, [na, wa]]) =>
              `${pythonJsonString(q)}: {"no_answer": ${formatPyFloat(na)}, "with_answer": ${formatPyFloat(wa)}}`,
          )
          .join(", ")}}`;
        first = false;
        if (buf.length > 1 << 16) {
          await sink.write(buf);
          buf = "";
        }
      }
      await sink.write(`${buf}}`);
    }
    await sink.write("}");
  });
}

/**
 * Qulac's flat layout `{metric: {record_id_with_flag: value}}`: context `topic-facet[-h1][-h2]`,
 * question number, flag 0 (no_answer) / 1 (with_answer), as `json.dumps` writes it; MAX and MIN
 * are ClariQ's additions and are left out.
 */
export async function writeQulacDict(target: string, spools: SpoolReader): Promise<void> {
  await writeAtomic(target, async (sink) => {
    await sink.write("{");
    for (const [m, [name]] of DICT_METRICS.entries()) {
      await sink.write(`${m ? ", " : ""}${pythonJsonString(name)}: {`);
      let first = true;
      for await (const [key, values] of spools.read(m)) {
        let buf = "";
        for (const [q, [na, wa]] of values) {
          if (q === "MAX" || q === "MIN") continue;
          buf += `${first ? "" : ", "}${pythonJsonString(`${key}-${q}-0`)}: ${formatPyFloat(na)}, ${pythonJsonString(`${key}-${q}-1`)}: ${formatPyFloat(wa)}`;
          first = false;
        }
        await sink.write(buf);
      }
      await sink.write("}");
    }
    await sink.write("}");
  });
}

/** A row of the Parquet eval table (MULTI_TURN_EVAL_ENTRY_SCHEMA / EVAL_ENTRY_SCHEMA). */
interface EvalRow {
  context: string | number;
  question: string;
  metric: string;
  no_answer: number;
  with_answer: number;
  aggregate: boolean;
}

/**
 * The eval dict as a long table, one row per (metric, context, question) in the dict's order
 * (metric-major): `context` an int64 context id, or a string (facet ids, Qulac's history ids)
 * when `stringContexts`; `aggregate` marks ClariQ's MAX and MIN rows.
 */
export async function writeParquetDict(
  target: string,
  spools: SpoolReader,
  o: { stringContexts: boolean; codec?: Codec },
): Promise<void> {
  const schema = o.stringContexts ? EVAL_ENTRY_SCHEMA : MULTI_TURN_EVAL_ENTRY_SCHEMA;
  await writeAtomic(target, async (sink) => {
    const w = await ParquetTableWriter.open<EvalRow>(sink, schema, { codec: o.codec });
    for (const [m, [metric]] of DICT_METRICS.entries()) {
      for await (const [context, values] of spools.read(m))
        await w.write(
          values.map(([question, [no_answer, with_answer]]) => ({
            context,
            question,
            metric,
            no_answer,
            with_answer,
            aggregate: question === "MAX" || question === "MIN",
          })),
        );
    }
    await w.finish();
  });
}

/** ClariQ's pickle `{metric: {context: {question: {'no_answer': x, 'with_answer': y}}}}` as `name.pkl` in `target` (.tar.gz). */
export async function writePickleTarGzDict(
  target: string,
  memberName: string,
  spools: SpoolReader,
): Promise<void> {
  await withTempDir(target, async (dir) => {
    const tmp = join(dir, memberName);
    await writeAtomic(tmp, async (sink) => pickleTo(sink, spools));
    await tarGzFile(tmp, target);
  });
}

async function pickleTo(sink: ByteSink, spools: SpoolReader): Promise<void> {
  const w = new PickleWriter();
  const flush = async () => {
    for (const c of w.take()) await sink.write(c);
  };
  w.beginDict();
  w.op("MARK");
  for (const [m, [name]] of DICT_METRICS.entries()) {
    w.str(name);
    w.op("EMPTY_DICT");
    w.memoize();
    let n = 0;
    for await (const [key, values] of spools.read(m)) {
      if (n === 0) w.op("MARK");
      if (typeof key === "number") w.int(key);
      else w.str(key);
      // {question: {'no_answer': x, 'with_answer': y}} as `value` of the same Maps writes it:
      // one item with SETITEM, more in MARK … SETITEMS batches of 1,000.
      w.op("EMPTY_DICT");
      w.memoize();
      let k = 0;
      for (const [q, [na, wa]] of values) {
        if (k === 0 && values.length !== 1) w.op("MARK");
        w.str(q);
        w.op("EMPTY_DICT");
        w.memoize();
        w.op("MARK");
        w.str("no_answer");
        w.float(na);
        w.str("with_answer");
        w.float(wa);
        w.op("SETITEMS");
        if (values.length === 1) w.op("SETITEM");
        else if (++k === 1000) {
          w.op("SETITEMS");
          k = 0;
        }
      }
      if (k > 0) w.op("SETITEMS");
      w.flushFrame();
      if (++n === 1000) {
        w.op("SETITEMS");
        n = 0;
        await flush();
      }
    }
    if (n > 0) w.op("SETITEMS");
    await flush();
  }
  w.op("SETITEMS");
  w.finish();
  await flush();
}
