// Eval dicts written from per-metric spools: ClariQ's pickle (in a tar.gz) and JSON.
import { createReadStream } from "node:fs";
import { unlink } from "node:fs/promises";
import { createInterface } from "node:readline";
import { type ByteSink, formatPyFloat, pythonJsonString, tarGzFile, writeAtomic } from "@convkit/io";
import { PickleWriter, PyFloat, type PyValue } from "@convkit/pickle";
import { DICT_METRICS, type Pair } from "./topic-eval.js";

/** One spooled context line: `[key, [[question, [no_answer, with_answer]], …]]` (JSON keeps every float exact). */
type Spooled = [string | number, [string, Pair][]];

/**
 * Per-metric spool files: results arrive topic by topic but the dicts are metric-major, so each
 * metric's contexts go to their own file, read back in order by the writers. Memory stays flat.
 */
export class MetricSpools {
  private readonly sinks: { write(s: string): boolean; end(cb: () => void): void }[] = [];
  readonly files: string[];
  contexts = 0;

  constructor(prefix: string) {
    this.files = DICT_METRICS.map(([m]) => `${prefix}.${m}.spool`);
  }

  async open(): Promise<void> {
    const { createWriteStream } = await import("node:fs");
    for (const f of this.files) this.sinks.push(createWriteStream(f));
  }

  /** Appends one topic's contexts for every metric. */
  async add(
    perMetric: readonly (readonly [string | number, readonly (readonly [string, Pair])[]])[][],
  ): Promise<void> {
    this.contexts += perMetric[0]?.length ?? 0;
    await Promise.all(
      perMetric.map((ctxs, m) => {
        if (ctxs.length === 0) return undefined;
        const ok = this.sinks[m]!.write(`${ctxs.map((c) => JSON.stringify(c)).join("\n")}\n`);
        return ok
          ? undefined
          : new Promise<void>((r) =>
              (this.sinks[m] as unknown as { once(e: string, f: () => void): void }).once("drain", r),
            );
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.sinks.map((s) => new Promise<void>((r) => s.end(r))));
  }

  async remove(): Promise<void> {
    await Promise.all(this.files.map((f) => unlink(f).catch(() => {})));
  }

  /** Spooled contexts of metric `m`, in order. */
  async *read(m: number): AsyncIterable<Spooled> {
    const rl = createInterface({
      input: createReadStream(this.files[m]!),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of rl) if (line !== "") yield JSON.parse(line) as Spooled;
  }
}

/** ClariQ's JSON layout `{metric: {context: {question: {"no_answer": x, "with_answer": y}}}}`, as `json.dumps` writes it. */
export async function writeJsonDict(target: string, spools: MetricSpools): Promise<void> {
  await writeAtomic(target, async (sink) => {
    await sink.write("{");
    for (let m = 0; m < DICT_METRICS.length; m++) {
      await sink.write(`${m ? ", " : ""}${pythonJsonString(DICT_METRICS[m]![0])}: {`);
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
export async function writeQulacDict(target: string, spools: MetricSpools): Promise<void> {
  await writeAtomic(target, async (sink) => {
    await sink.write("{");
    for (let m = 0; m < DICT_METRICS.length; m++) {
      await sink.write(`${m ? ", " : ""}${pythonJsonString(DICT_METRICS[m]![0])}: {`);
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

/** ClariQ's pickle `{metric: {context: {question: {'no_answer': x, 'with_answer': y}}}}` as `name.pkl` in `target` (.tar.gz). */
export async function writePickleDict(
  target: string,
  memberName: string,
  spools: MetricSpools,
): Promise<void> {
  const tmp = `${target}.${process.pid}.d/${memberName}`;
  const { mkdir, rm } = await import("node:fs/promises");
  await mkdir(`${target}.${process.pid}.d`, { recursive: true });
  try {
    await writeAtomic(tmp, async (sink) => pickleTo(sink, spools));
    await tarGzFile(tmp, target);
  } finally {
    await rm(`${target}.${process.pid}.d`, { recursive: true, force: true });
  }
}

async function pickleTo(sink: ByteSink, spools: MetricSpools): Promise<void> {
  const w = new PickleWriter();
  const flush = async () => {
    for (const c of w.take()) await sink.write(c);
  };
  w.beginDict();
  w.op("MARK");
  for (let m = 0; m < DICT_METRICS.length; m++) {
    w.str(DICT_METRICS[m]![0]);
    w.op("EMPTY_DICT");
    w.memoize();
    let n = 0;
    for await (const [key, values] of spools.read(m)) {
      if (n === 0) w.op("MARK");
      if (typeof key === "number") w.int(key);
      else w.str(key);
      const inner = new Map<PyValue, PyValue>();
      for (const [q, [na, wa]] of values)
        inner.set(
          q,
          new Map<PyValue, PyValue>([
            ["no_answer", new PyFloat(na)],
            ["with_answer", new PyFloat(wa)],
          ]),
        );
      w.value(inner);
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
