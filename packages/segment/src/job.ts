// The segmentation job: input files (ClueWeb22 txt trees, iKAT JSONL, TrecWeb, JSONL) → passage files, sharded and resumable.
import { appendFile, mkdir, readdir, readFile, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { detectFormat, readTrecWeb } from "@convkit/formats";
import {
  type ByteSink,
  errorFromThread,
  InputError,
  readLineUnits,
  UsageError,
  writeAtomic,
} from "@convkit/io";
import { inOrder, type TaskPool } from "@convkit/pool";
import { encodeSegmentTask, type PassageFormat, type SegmentResult, type SegmentTask } from "./encode.js";
import { openSegmentPool, UNITS_AHEAD_PER_THREAD } from "./pool.js";
import { checkSplitter, loadSplitter } from "./splitters.js";

/** Options of {@link runSegmentation}. */
export interface SegmentJobOptions extends Omit<SegmentTask, "docs"> {
  /** Files or folders (walked for .json, .json.gz, .json.bz2, .jsonl[.gz], .trecweb[.gz]); `-` is stdin. */
  inputs: readonly string[];
  /** Output folder (one set of files per input file), or `-` for JSONL on stdout. */
  out: string;
  /** [i, N]: this machine takes input files i, i+N, … of the sorted list. */
  shard?: readonly [number, number];
  threads?: number;
  onProgress?: (docs: number, bytes: number) => void;
}

/** What a run did. */
export interface SegmentJobSummary {
  files: number;
  skipped: number;
  docs: number;
  passages: number;
}

const INPUT = /\.(json|jsonl|trecweb|txt)(\.(gz|bz2))?$/;
const MANIFEST = "manifest.tsv";

/** Input files: given files as they are, folders walked (sorted by path, byte order), each with the root it is relative to. */
export async function listInputs(inputs: readonly string[]): Promise<{ file: string; rel: string }[]> {
  const out: { file: string; rel: string }[] = [];
  for (const input of inputs) {
    if (input === "-") {
      out.push({ file: "-", rel: "stdin" });
      continue;
    }
    const s = await stat(input).catch(() => undefined);
    if (!s) throw new InputError(input, {}, "an input file or folder", "nothing there");
    if (s.isFile()) {
      out.push({ file: input, rel: input.split(/[\\/]/).pop()! });
      continue;
    }
    const walk = async (dir: string): Promise<void> => {
      for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
        a.name < b.name ? -1 : 1,
      )) {
        const p = join(dir, e.name);
        if (e.isDirectory()) await walk(p);
        else if (INPUT.test(e.name)) out.push({ file: p, rel: relative(input, p) });
      }
    };
    await walk(input);
  }
  return out;
}

// 512 KiB: few hand-offs (each costs both threads), while the units in flight stay small in memory.
export const UNIT_BYTES = 1 << 19;

/**
 * Work units of an input file: raw JSONL bytes of whole lines (decoded, parsed and counted in the
 * pool, so the reading thread only moves bytes), or parsed documents (TrecWeb).
 */
async function* units(file: string): AsyncIterable<Pick<SegmentTask, "docs" | "bytes">> {
  const fmt = await detectFormat(file);
  if (fmt === "trecweb") {
    for await (const b of readTrecWeb(file))
      yield {
        docs: b.map((d) => ({
          id: d.docno,
          text: d.body,
          url: d.url,
          title: d.title ?? d.body.split("\n", 1)[0]!,
        })),
      };
    return;
  }
  const name = file === "-" ? "<stdin>" : file;
  for await (const data of readLineUnits(file, UNIT_BYTES)) yield { bytes: { file: name, data } };
}

/** A unit's error with its line renumbered from the unit's to the file's (`before` lines precede the unit). */
export function inFile(e: unknown, before: number): unknown {
  const err = errorFromThread(e);
  if (!(err instanceof InputError) || !("line" in err.location) || before === 0) return err;
  return new InputError(
    err.file,
    { ...err.location, line: err.location.line + before },
    err.expected,
    err.found,
  );
}

/**
 * Two inputs whose outputs would be the same files (`x.json` and `x.json.gz`) are refused: the
 * second would overwrite the first's passages. Checked on the whole list, before sharding.
 */
function refuseSharedOutputs(inputs: readonly { file: string; rel: string }[]): void {
  const seen = new Map<string, string>();
  for (const { file, rel } of inputs) {
    const base = rel.replace(INPUT, "");
    const other = seen.get(base);
    if (other !== undefined)
      throw new UsageError(
        `${other} and ${file} would write the same outputs (${base}.*): segment them into different --out folders`,
      );
    seen.set(base, file);
  }
}

/** Output files of an input: `OUT/rel-without-extension.{jsonl,hashes.tsv,trecweb}`. */
function outputPaths(out: string, rel: string): Record<PassageFormat, string> {
  const base = join(out, rel.replace(INPUT, ""));
  return { jsonl: `${base}.jsonl`, hashes: `${base}.hashes.tsv`, trecweb: `${base}.trecweb` };
}

async function finished(out: string): Promise<Set<string>> {
  const text = await readFile(join(out, MANIFEST), "utf8").catch(() => "");
  return new Set(
    text
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("\t")[0]!),
  );
}

/** Removes temp files of writers that died (their process is gone): what a killed run leaves. */
async function removeDeadTemps(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await removeDeadTemps(p);
    const m = /^\..+\.(\d+)\.[a-z0-9]+\.tmp$/.exec(e.name);
    if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) await unlink(p).catch(() => {});
  }
}

/**
 * Removes the temp files of these outputs, whoever left them: a queued unit taken again after its
 * worker died (on any machine: a process id says nothing across machines). Only the unit's own
 * outputs: the folder is shared with units other machines are writing.
 */
async function removeUnitTemps(outputs: readonly string[]): Promise<void> {
  for (const out of outputs) {
    const dir = dirname(out);
    // writeAtomic's temp name: `.NAME.PID.RANDOM.tmp` (`.x.jsonl.…` only, never `.x.jsonl.jsonl.…`).
    const own = new RegExp(
      `^\\.${basename(out).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.\\d+\\.[a-z0-9]+\\.tmp$`,
    );
    for (const name of await readdir(dir).catch(() => [] as string[]))
      if (own.test(name)) await unlink(join(dir, name)).catch(() => {});
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** An input's line in `OUT/manifest.tsv`: its path relative to its root, documents and passages. */
export interface ManifestEntry {
  rel: string;
  docs: number;
  passages: number;
}

const manifestLine = (e: ManifestEntry) => `${e.rel}\t${e.docs}\t${e.passages}\n`;

/** A pool for segment's tasks (worker threads), made once and shared by the inputs of a run. */
export type SegmentPool = TaskPool<SegmentTask, SegmentResult>;

/** Opens the pool a queue worker runs segment units on (CPU work off its main thread). */
export function openSegmentationPool(threads: number): Promise<SegmentPool> {
  return openSegmentPool<SegmentTask, SegmentResult>(threads);
}

/** Output buffers written out, handed back with the next tasks to be filled again. */
type Spare = ArrayBuffer[];

/**
 * Segments one input file into its outputs under `o.out` (all appear together, atomically, or
 * none), on `pool` when given, else on this thread. `onUnit` hears each unit's documents and
 * input bytes. Running it again on the same input writes the same bytes.
 */
async function segmentInput(
  input: { file: string; rel: string },
  o: Omit<SegmentJobOptions, "inputs" | "shard" | "threads" | "onProgress">,
  pool: SegmentPool | undefined,
  spare: Spare,
  onUnit: (docs: number, bytes: number) => void,
  crash: () => void = () => {},
): Promise<ManifestEntry> {
  const toStdout = o.out === "-";
  const paths = outputPaths(o.out, input.rel);
  const entry: ManifestEntry = { rel: input.rel, docs: 0, passages: 0 };
  const sinks: Partial<Record<PassageFormat, ByteSink>> = {};
  const threads = pool?.threads ?? 1;
  const start = (u: Pick<SegmentTask, "bytes" | "docs">) => {
    crash();
    const task: SegmentTask = {
      ...taskBase(o),
      ...u,
      // Each worker's caches a share of one thread's: the same memory at any thread count.
      cacheShare: pool ? 1 / threads : undefined,
      spare: spare.splice(0, o.formats.length),
    };
    const transfer = task.bytes ? [task.bytes.data.buffer as ArrayBuffer, ...task.spare!] : task.spare!;
    return pool ? pool.run(task, transfer) : Promise.resolve().then(() => encodeSegmentTask(task));
  };
  const fill = async () => {
    // Lines of the file before the unit at hand: results come in order, so this numbers its errors.
    let linesBefore = 0;
    for await (const r of inOrder(units(input.file), start, UNITS_AHEAD_PER_THREAD * threads + 1, (e) =>
      inFile(e, linesBefore),
    )) {
      linesBefore += r.lines;
      entry.passages += r.passages;
      entry.docs += r.docs;
      for (const f of o.formats) {
        const b = r[f];
        await sinks[f]!.write(b, () => spare.push(b.buffer as ArrayBuffer));
      }
      onUnit(r.docs, r.inputBytes);
    }
  };
  if (toStdout) {
    await writeAtomic("-", async (s) => {
      sinks.jsonl = s;
      await fill();
    });
  } else {
    // Nest the writers: all outputs of the input appear together, or none.
    const nest = async (i: number): Promise<void> => {
      if (i === o.formats.length) return fill();
      const f = o.formats[i]!;
      await mkdir(dirname(paths[f]), { recursive: true });
      await writeAtomic(paths[f], async (s) => {
        sinks[f] = s;
        await nest(i + 1);
      });
    };
    await nest(0);
  }
  return entry;
}

/**
 * The input files of a run, as a run on the queue plans it: listed (folders walked, sorted),
 * refused when two would write the same outputs, the splitter checked. Nothing is written.
 */
export async function planSegmentation(
  o: Pick<SegmentJobOptions, "inputs" | "splitter" | "spacyModel">,
): Promise<{ file: string; rel: string }[]> {
  await checkSplitter(o.splitter, o.spacyModel);
  const inputs = await listInputs(o.inputs);
  if (inputs.some((i) => i.file === "-"))
    throw new UsageError("a run on the queue reads files every worker sees: stdin (-) cannot be one");
  refuseSharedOutputs(inputs);
  return inputs;
}

/** What a queued unit of a segmentation carries: one input and the run's options. */
export interface SegmentUnitData
  extends Omit<SegmentJobOptions, "inputs" | "shard" | "threads" | "onProgress"> {
  input: { file: string; rel: string };
}

/** Per pool, the output buffers its tasks may fill again (as a local run keeps one list for all its inputs). */
const spareOfPool = new WeakMap<SegmentPool, Spare>();

/**
 * A queued unit: one input segmented on a worker's pool (the same outputs, byte for byte, as a
 * local run's); its manifest entry is the unit's result.
 */
export async function segmentQueuedInput(
  data: SegmentUnitData,
  pool: SegmentPool,
  onProgress: (docs: number, bytes: number) => void,
): Promise<ManifestEntry> {
  await removeUnitTemps(Object.values(outputPaths(data.out, data.input.rel)));
  let docs = 0;
  let bytes = 0;
  // Output buffers written out are filled again by the next units, across this worker's jobs.
  let spare = spareOfPool.get(pool);
  if (!spare) {
    spare = [];
    spareOfPool.set(pool, spare);
  }
  return segmentInput(data.input, data, pool, spare, (d, b) => {
    docs += d;
    bytes += b;
    onProgress(docs, bytes);
  });
}

/** A queued run's end: its manifest, written whole from the units' entries (in input order), atomically. */
export async function finishQueuedSegmentation(
  out: string,
  entries: readonly ManifestEntry[],
): Promise<SegmentJobSummary> {
  await mkdir(out, { recursive: true });
  await writeAtomic(join(out, MANIFEST), async (s) => {
    await s.write(Buffer.from(entries.map(manifestLine).join("")));
  });
  return {
    files: entries.length,
    skipped: 0,
    docs: entries.reduce((n, e) => n + e.docs, 0),
    passages: entries.reduce((n, e) => n + e.passages, 0),
  };
}

/**
 * Segments every input file. Batches of documents go through a piscina pool (results taken in
 * order: bytes identical for any thread count); each input's outputs appear atomically, then
 * the input is recorded in `OUT/manifest.tsv`, so a killed run started again skips what is done
 * and redoes only the file in flight. `shard` splits the sorted input list; the shards' output
 * folders together hold exactly the files of an unsharded run.
 */
export async function runSegmentation(o: SegmentJobOptions): Promise<SegmentJobSummary> {
  // The splitter (and a model folder's problems) first: nothing is written for a bad one. A
  // pooled run only checks it here: the workers load the model.
  const threads = o.threads ?? 1;
  await (threads > 1 ? checkSplitter : loadSplitter)(o.splitter, o.spacyModel);
  let inputs = await listInputs(o.inputs);
  if (o.out !== "-") refuseSharedOutputs(inputs);
  if (o.shard) {
    const [i, n] = o.shard;
    inputs = inputs.filter((_, k) => k % n === i);
  }
  const toStdout = o.out === "-";
  const done = toStdout ? new Set<string>() : await finished(o.out);
  if (!toStdout) {
    await mkdir(o.out, { recursive: true });
    await removeDeadTemps(o.out);
  }
  const pool = threads > 1 ? await openSegmentPool<SegmentTask, SegmentResult>(threads) : undefined;
  const summary: SegmentJobSummary = { files: 0, skipped: 0, docs: 0, passages: 0 };
  // For the kill-and-resume test: a real SIGKILL once this many units were handed out.
  const crashAt = Number(process.env.CONVKIT_SEGMENT_KILL_AT_UNIT ?? Number.NaN);
  let handedOut = 0;
  const crash = () => {
    if (handedOut++ >= crashAt) process.kill(process.pid, "SIGKILL");
  };
  // Output buffers that are written out: handed back with the next tasks, outputs are built in
  // them again (a steady set of buffers, no garbage waiting for the main thread's rare GCs).
  const spare: Spare = [];
  try {
    for (const input of inputs) {
      if (done.has(input.rel)) {
        summary.skipped++;
        continue;
      }
      const e = await segmentInput(
        input,
        o,
        pool,
        spare,
        (docs, bytes) => {
          summary.docs += docs;
          o.onProgress?.(summary.docs, bytes);
        },
        crash,
      );
      summary.passages += e.passages;
      if (!toStdout) await appendFile(join(o.out, MANIFEST), manifestLine(e));
      summary.files++;
    }
  } finally {
    await pool?.destroy();
  }
  return summary;
}

function taskBase(
  o: Omit<SegmentJobOptions, "inputs" | "shard" | "threads" | "onProgress">,
): Omit<SegmentTask, "docs"> {
  return {
    preset: o.preset,
    overrides: o.overrides,
    splitter: o.splitter,
    spacyModel: o.spacyModel,
    formats: o.formats,
    urlTitle: o.urlTitle,
  };
}
