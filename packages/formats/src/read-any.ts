// One entry point over every reader: the records of a file in any known format, as batches.
import { InputError } from "@convkit/io";
import type { PyValue } from "@convkit/pickle";
import { MAX_INT_DIGITS, readPickleFile } from "@convkit/pickle";
import {
  readClarificationNeedRun,
  readClariqRows,
  readClariqTestTopics,
  readHumanMultiTurn,
  readMultiTurnRun,
  readQuestionBank,
} from "./clariq.js";
import { readClueWeb22 } from "./clueweb22.js";
import { detectFormat, type FormatName } from "./detect.js";
import { evalEntries, syntheticRecords, toEvalDict } from "./dicts.js";
import { readIkatRunTurns, readIkatTopics, readPassageHashes, readPassages } from "./ikat.js";
import { readIkat25Run } from "./ikat25.js";
import { readQulacJson } from "./qulac.js";
import { displayName } from "./table.js";
import { readArgsMe, readToucheTopics } from "./touche.js";
import { readQrels, readRun } from "./trec.js";
import { readTrecWeb } from "./trecweb.js";

/**
 * One batch from a whole-file reader, started when the batches are first read: a promise made
 * earlier could reject (bad input) before anyone awaits it, and an unhandled rejection ends the
 * process with exit 1 and a stack trace instead of the InputError's one line.
 */
async function* once<T>(read: () => Promise<T[]>): AsyncIterable<T[]> {
  yield await read();
}

/** Which records a pickle holds: a ClariQ synthetic dict, an eval dict, or anything else (as JSON). */
async function* pickleRecords(path: string): AsyncIterable<unknown[]> {
  const file = displayName(path);
  const v = await readPickleFile(path);
  if (v instanceof Map && v.size > 0) {
    const [k, first] = v.entries().next().value as [PyValue, PyValue];
    if (typeof k === "number" && first instanceof Map && first.has("context_id")) {
      let batch: unknown[] = [];
      for (const r of syntheticRecords(file, v)) {
        batch.push(r);
        if (batch.length === 1000) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
      return;
    }
    if (typeof k === "string" && first instanceof Map) {
      let batch: unknown[] = [];
      for (const e of evalEntries(toEvalDict(file, v))) {
        batch.push(e);
        if (batch.length === 1000) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
      return;
    }
  }
  yield [toJsonValue(v, file)];
}

/**
 * A PyValue as plain JSON data (dicts become objects with string keys, bytes become number arrays,
 * ints past 2^53 decimal strings). The pickle reader's values recurse safely here: nested at most
 * its MAX_DEPTH deep, without cycles, their memo-shared parts bounded when written out in full.
 */
export function toJsonValue(v: PyValue, file: string): unknown {
  const json = (x: PyValue): unknown => toJsonValue(x, file);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), json(x)]));
  if (Array.isArray(v)) return v.map(json);
  if (typeof v === "bigint") return intText(v, file);
  if (v instanceof Uint8Array) return [...v];
  if (v instanceof Set) return [...v].map(json);
  if (v !== null && typeof v === "object") {
    if ("items" in v && Array.isArray(v.items)) return (v.items as PyValue[]).map(json);
    if ("value" in v && typeof v.value === "number") return v.value;
  }
  return v;
}

/**
 * An int's decimal digits, refused past CPython's int_max_str_digits as its json.dumps refuses
 * them (and V8's toString of a huge BigInt grows faster than the int: a 1 MB one took seconds).
 */
function intText(v: bigint, file: string): string {
  const bits = (v < 0n ? -v : v).toString(16).length * 4;
  // Only ints that may fit the limit are printed (4300 digits take about 14,300 bits).
  const s = bits <= 15_000 ? v.toString() : "";
  const digits = s === "" ? Math.floor(bits * Math.log10(2)) : s.length - (v < 0n ? 1 : 0);
  if (digits > MAX_INT_DIGITS)
    throw new InputError(
      file,
      {},
      `ints of at most ${MAX_INT_DIGITS} digits to write as JSON (CPython's int_max_str_digits)`,
      `an int of ${s === "" ? "about " : ""}${digits} digits`,
    );
  return s;
}

/** The records of `path` in `format` (detected from content when not given), in batches. */
export async function readAny(
  path: string,
  format?: FormatName,
): Promise<{ format: FormatName; batches: AsyncIterable<unknown[]> }> {
  const f = format ?? (await detectFormat(path));
  if (!f)
    throw new InputError(
      displayName(path),
      { line: 1 },
      "a known format (pass --format)",
      "an unrecognized first line",
    );
  const batches = ((): AsyncIterable<unknown[]> => {
    switch (f) {
      case "clariq-topics":
        return readClariqRows(path);
      case "clariq-test-topics":
        return readClariqTestTopics(path);
      case "question-bank":
        return readQuestionBank(path);
      case "human-multi-turn":
        return readHumanMultiTurn(path);
      case "qrels":
        return readQrels(path);
      case "run":
        return readRun(path);
      case "clarification-need-run":
        return readClarificationNeedRun(path);
      case "multi-turn-run":
        return readMultiTurnRun(path);
      case "qulac-json":
        return once(() => readQulacJson(path));
      case "ikat-topics":
        return once(() => readIkatTopics(path));
      case "ikat-run":
        return once(() => readIkatRunTurns(path));
      case "ikat25-run":
        return readIkat25Run(path);
      case "passages":
        return readPassages(path);
      case "passage-hashes":
        return readPassageHashes(path);
      case "trecweb":
        return readTrecWeb(path);
      case "clueweb22":
        return readClueWeb22(path);
      case "args-me":
        return readArgsMe(path);
      case "touche-topics":
        return once(() => readToucheTopics(path));
      case "pickle":
      case "tar":
        return pickleRecords(path);
    }
  })();
  return { format: f, batches };
}
