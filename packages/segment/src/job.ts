// The segmentation job: input files (ClueWeb22 txt trees, iKAT JSONL, TrecWeb, JSONL) → passage files, sharded and resumable.
import { mkdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PASSAGE_SCHEMA, PASSAGE_WITH_OFFSETS_SCHEMA, type PassageRecord } from "@convkit/formats";
import { type ByteSink, ConvkitError, UsageError, withOutputDir, writeAtomic } from "@convkit/io";
import { type Codec, ParquetTableWriter } from "@convkit/parquet";
import { inOrder, type TaskPool } from "@convkit/pool";
import { type ByteFormat, encodeSegmentTask, type SegmentResult, type SegmentTask } from "./encode.js";
import {
  listInputs,
  outputFiles,
  refuseSharedOutputs,
  removeDeadTemps,
  removeIfThere,
  removeUnitTemps,
} from "./files.js";
import {
  type Assessment,
  assess,
  COMPRESSION,
  manifestWriter,
  modelIdentity,
  type OutputManifest,
  outputOptions,
  readManifest,
  sha256OfFile,
  stampOf,
  writeManifest,
} from "./manifest.js";
import { openSegmentPool, UNITS_AHEAD_PER_THREAD } from "./pool.js";
import { checkSplitter, loadSplitter } from "./splitters.js";
import { inFile, units } from "./units.js";

/** Options of {@link runSegmentation}. */
export interface SegmentJobOptions extends Omit<SegmentTask, "docs"> {
  /** Files or folders (walked for .json, .json.gz, .json.bz2, .jsonl[.gz], .trecweb[.gz]); `-` is stdin. */
  inputs: readonly string[];
  /** Output folder (one set of files per input file), or `-` for JSONL on stdout. */
  out: string;
  /** Page compression of the Parquet outputs (zstd by default). */
  compression?: Codec;
  /** [i, N]: this machine takes input files i, i+N, … of the sorted list. */
  shard?: readonly [number, number];
  threads?: number;
  onProgress?: (docs: number, bytes: number) => void;
  /** Hears one line for each input redone (and why), or only touched. */
  onNote?: (line: string) => void;
}

/** What a run did. */
export interface SegmentJobSummary {
  files: number;
  skipped: number;
  docs: number;
  passages: number;
}

/** What became of an input: its path relative to its root, documents and passages (`skipped`: its outputs were current). */
export interface ManifestEntry {
  rel: string;
  docs: number;
  passages: number;
  skipped?: boolean;
}

/** A pool for segment's tasks (worker threads), made once and shared by the inputs of a run. */
export type SegmentPool = TaskPool<SegmentTask, SegmentResult>;

/** Opens the pool a queue worker runs segment units on (CPU work off its main thread). */
export function openSegmentationPool(threads: number): Promise<SegmentPool> {
  return openSegmentPool<SegmentTask, SegmentResult>(threads);
}

/** Output buffers written out, handed back with the next tasks to be filled again. */
type Spare = ArrayBuffer[];

type InputOptions = Omit<SegmentJobOptions, "inputs" | "shard" | "threads" | "onProgress" | "onNote">;

/**
 * Segments one input file into its outputs under `o.out` (all appear together, atomically, or
 * none), on `pool` when given, else on this thread. `onUnit` hears each unit's documents and
 * input bytes. Running it again on the same input writes the same bytes.
 */
async function segmentInput(
  input: { file: string; rel: string },
  o: InputOptions,
  pool: SegmentPool | undefined,
  spare: Spare,
  onUnit: (docs: number, bytes: number) => void,
  crash: () => void = () => {},
): Promise<ManifestEntry> {
  const toStdout = o.out === "-";
  const { paths } = outputFiles(o.out, input.rel);
  const entry: ManifestEntry = { rel: input.rel, docs: 0, passages: 0 };
  const sinks: Partial<Record<ByteFormat, ByteSink>> = {};
  let parquet: ParquetTableWriter<PassageRecord> | undefined;
  const byteFormats = o.formats.filter((f): f is ByteFormat => f !== "parquet");
  const threads = pool?.threads ?? 1;
  const start = (u: Pick<SegmentTask, "bytes" | "docs">) => {
    crash();
    const taskSpare = spare.splice(0, byteFormats.length);
    const task: SegmentTask = {
      ...taskBase(o),
      ...u,
      // Each worker's caches a share of one thread's: the same memory at any thread count.
      cacheShare: pool ? 1 / threads : undefined,
      spare: taskSpare,
    };
    const transfer = task.bytes ? [task.bytes.data.buffer as ArrayBuffer, ...taskSpare] : taskSpare;
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
      for (const f of byteFormats) {
        const b = r[f];
        await sinks[f]!.write(b, () => spare.push(b.buffer as ArrayBuffer));
      }
      if (parquet) await parquet.write(r.rows);
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
      const f = o.formats[i];
      if (f === undefined) return fill(); // past the last format
      await mkdir(dirname(paths[f]), { recursive: true });
      await writeAtomic(paths[f], async (s) => {
        if (f !== "parquet") {
          sinks[f] = s;
          return nest(i + 1);
        }
        // Rows are encoded here, on the main thread, in unit order: the same bytes for any --threads.
        const schema = o.offsets ? PASSAGE_WITH_OFFSETS_SCHEMA : PASSAGE_SCHEMA;
        const w = await ParquetTableWriter.open<PassageRecord>(s, schema, {
          codec: o.compression,
        });
        parquet = w;
        await nest(i + 1);
        await w.finish();
      });
    };
    await nest(0);
  }
  return entry;
}

/** What every input of a run is compared with: who writes, with which options. */
interface ResumeContext {
  writer: string;
  options: OutputManifest["options"];
}

async function resumeContext(o: InputOptions): Promise<ResumeContext> {
  const model =
    o.splitter === "spacy" && o.spacyModel !== undefined ? await modelIdentity(o.spacyModel) : undefined;
  return { writer: manifestWriter(), options: outputOptions({ ...o, model }) };
}

/**
 * One input into a folder, unless its outputs are current: its manifest (`OUT/x.manifest.json`)
 * says what they were made from. What is redone is said on `onNote`, in one line. The manifest is
 * removed before any output is replaced and written after all of them: a kill in between leaves
 * outputs without one, which the next run redoes. Stdin and pipes cannot be recognised again:
 * always segmented, no manifest.
 */
async function segmentUnlessCurrent(
  input: { file: string; rel: string },
  o: InputOptions,
  ctx: ResumeContext,
  pool: SegmentPool | undefined,
  spare: Spare,
  onUnit: (docs: number, bytes: number) => void,
  onNote: (line: string) => void,
  crash?: () => void,
): Promise<ManifestEntry> {
  const files = outputFiles(o.out, input.rel);
  const stamp = await stampOf(input.file);
  const prev = stamp && (await readManifest(files.manifest));
  const a: Assessment = stamp
    ? await assess(
        {
          name: input.file,
          file: input.file,
          outputsName: files.name,
          paths: files.paths,
          stamp,
          ...ctx,
          formats: o.formats,
        },
        prev,
      )
    : { write: [...o.formats] };
  if (a.note) onNote(a.note);
  if (a.write.length === 0 && a.kept) {
    // Only touched: the new mtime recorded, so the next run need not read the file again.
    if (a.kept !== prev) await writeManifest(files.manifest, a.kept);
    return { rel: input.rel, docs: a.kept.docs, passages: a.kept.passages, skipped: true };
  }
  await removeIfThere(files.manifest);
  // Redone whole: outputs of formats not asked for now were made from what changed; they go too.
  if (!a.kept)
    for (const f of ["jsonl", "parquet", "hashes", "trecweb"] as const)
      if (!o.formats.includes(f)) await removeIfThere(files.paths[f]);
  // The input's sha256, read beside the segmentation (the page cache serves one of the two reads).
  const reading = new AbortController();
  const digest = stamp ? sha256OfFile(input.file, reading.signal) : undefined;
  digest?.catch(() => {});
  let e: ManifestEntry;
  try {
    e = await segmentInput(input, { ...o, formats: a.write }, pool, spare, onUnit, crash);
  } catch (err) {
    // A failed input's error is not kept waiting for the rest of its hash (a read of gigabytes).
    reading.abort();
    throw err;
  }
  if (!stamp || !digest) return e;
  const after = await stampOf(input.file);
  if (after?.size !== stamp.size || after.mtimeNs !== stamp.mtimeNs)
    throw new ConvkitError(
      `${input.file}: changed while it was being segmented; its outputs are not recorded as done: run again`,
    );
  const outputs = { ...a.kept?.outputs };
  for (const f of a.write) outputs[f] = (await stat(files.paths[f])).size;
  // A Parquet output kept from a run before, not written now, keeps its compression on record.
  const keptCodec = a.kept?.options[COMPRESSION];
  const options =
    outputs.parquet !== undefined && !a.write.includes("parquet") && keptCodec !== undefined
      ? { ...ctx.options, [COMPRESSION]: keptCodec }
      : ctx.options;
  await writeManifest(files.manifest, {
    ...ctx,
    options,
    input: { ...stamp, sha256: await digest },
    outputs,
    docs: e.docs,
    passages: e.passages,
  });
  return e;
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
export interface SegmentUnitData extends InputOptions {
  input: { file: string; rel: string };
}

/** Per pool, the output buffers its tasks may fill again (as a local run keeps one list for all its inputs). */
const spareOfPool = new WeakMap<SegmentPool, Spare>();

/**
 * A queued unit: one input segmented on a worker's pool unless its outputs are current (the same
 * outputs and manifest, byte for byte, as a local run's); what became of it is the unit's result.
 */
export async function segmentQueuedInput(
  data: SegmentUnitData,
  pool: SegmentPool,
  onProgress: (docs: number, bytes: number) => void,
  onNote: (line: string) => void = () => {},
): Promise<ManifestEntry> {
  const files = outputFiles(data.out, data.input.rel);
  await removeUnitTemps([...Object.values(files.paths), files.manifest]);
  let docs = 0;
  let bytes = 0;
  // Output buffers written out are filled again by the next units, across this worker's jobs.
  let spare = spareOfPool.get(pool);
  if (!spare) {
    spare = [];
    spareOfPool.set(pool, spare);
  }
  const ctx = await resumeContext(data);
  return segmentUnlessCurrent(
    data.input,
    data,
    ctx,
    pool,
    spare,
    (d, b) => {
      docs += d;
      bytes += b;
      onProgress(docs, bytes);
    },
    onNote,
  );
}

/** The list of done inputs an older convkit kept: it says nothing of what they were made from, and goes. */
const OLD_MANIFEST = "manifest.tsv";

/** A queued run's end: what its units did, summed (each wrote its own manifest). */
export async function finishQueuedSegmentation(
  out: string,
  entries: readonly ManifestEntry[],
): Promise<SegmentJobSummary> {
  await removeIfThere(join(out, OLD_MANIFEST));
  const skipped = entries.filter((e) => e.skipped).length;
  return {
    files: entries.length - skipped,
    skipped,
    docs: entries.reduce((n, e) => n + (e.skipped ? 0 : e.docs), 0),
    passages: entries.reduce((n, e) => n + (e.skipped ? 0 : e.passages), 0),
  };
}

/**
 * Segments every input file. Batches of documents go through a piscina pool (results taken in
 * order: bytes identical for any thread count); each input's outputs appear atomically, then its
 * manifest, so a run started again (after a kill, a change of input, options or formats) redoes
 * exactly what is not current. `shard` splits the sorted input list; the shards' output folders
 * together hold exactly the files of an unsharded run.
 */
export async function runSegmentation(o: SegmentJobOptions): Promise<SegmentJobSummary> {
  // The splitter (and a model folder's problems) first: nothing is written for a bad one. A
  // pooled run only checks it here: the workers load the model.
  const threads = o.threads ?? 1;
  // An output folder that is a file: said before any work (mkdir would fail with EEXIST).
  if (o.out !== "-" && (await stat(o.out).catch(() => undefined))?.isDirectory() === false)
    throw new UsageError(`-o ${o.out}: expected an output folder, found a file`);
  await (threads > 1 ? checkSplitter : loadSplitter)(o.splitter, o.spacyModel);
  let inputs = await listInputs(o.inputs);
  if (o.out !== "-") refuseSharedOutputs(inputs);
  if (o.shard) {
    const [i, n] = o.shard;
    inputs = inputs.filter((_, k) => k % n === i);
  }
  if (o.out === "-") return segmentAll(inputs, o, undefined);
  // A new output folder that ends empty (bad input, a full disk) is removed: a failed run leaves
  // nothing behind. One that holds finished files stays: the next run resumes from them.
  const out = o.out;
  return withOutputDir(out, async () => {
    const ctx = await resumeContext(o);
    await removeDeadTemps(out);
    await removeIfThere(join(out, OLD_MANIFEST));
    return segmentAll(inputs, o, ctx);
  });
}

/** Segments each input in turn (with `ctx`, only those whose outputs are not current). */
async function segmentAll(
  inputs: readonly { file: string; rel: string }[],
  o: SegmentJobOptions,
  ctx: ResumeContext | undefined,
): Promise<SegmentJobSummary> {
  const threads = o.threads ?? 1;
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
  const onUnit = (docs: number, bytes: number) => {
    summary.docs += docs;
    o.onProgress?.(summary.docs, bytes);
  };
  try {
    for (const input of inputs) {
      const e = ctx
        ? await segmentUnlessCurrent(input, o, ctx, pool, spare, onUnit, o.onNote ?? (() => {}), crash)
        : await segmentInput(input, o, pool, spare, onUnit, crash);
      if (e.skipped) {
        summary.skipped++;
        continue;
      }
      summary.passages += e.passages;
      summary.files++;
    }
  } finally {
    await pool?.destroy();
  }
  return summary;
}

function taskBase(o: InputOptions): Omit<SegmentTask, "docs"> {
  return {
    preset: o.preset,
    overrides: o.overrides,
    splitter: o.splitter,
    spacyModel: o.spacyModel,
    formats: o.formats,
    urlTitle: o.urlTitle,
    offsets: o.offsets,
  };
}
