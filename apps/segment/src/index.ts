// convkit-segment: passages the iKAT / MS MARCO way at collection scale, and splitter agreement.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { defineCommand, PARQUET_COMPRESSION_OPTION, startProgress, stderrReport } from "@convkit/cli";
import { collect, readJsonl } from "@convkit/formats";
import { checkOutputDir, checkOutputPath, UsageError, writeStdout } from "@convkit/io";
import { Fields, inputMismatch } from "@convkit/json";
import { checkRunId, deriveRunId, parseQueueUrl, runOnQueue } from "@convkit/queue";
import {
  agreeingPairs,
  loadSplitter,
  type PassageFormat,
  passagePairs,
  planSegmentation,
  runSegmentation,
  runSentences,
  type SegmentUnitData,
  SPACY_MODEL_HINT,
  SPLITTER_NAMES,
  SPLITTERS,
  segmentRunJob,
  WINDOW_OPTIONS,
} from "@convkit/segment";

/** `--spacy-model`, shared by the commands: a spaCy pipeline folder for the `spacy` splitter. */
const SPACY_MODEL_OPTION = {
  name: "spacy-model",
  type: "string",
  metavar: "DIR",
  description:
    "spaCy pipeline folder for the spacy splitter, e.g. en_core_web_sm-3.4.1/ from the model's wheel (default: $CONVKIT_SPACY_MODEL); with it, spacy is the default splitter",
} as const;

const SPLITTER_OPTION = {
  name: "splitter",
  type: "string",
  choices: SPLITTER_NAMES,
  description: `sentence splitter (default: spacy when a spaCy model is given, else ${SPLITTER_NAMES[0]})`,
} as const;

const THREADS_OPTION = {
  name: "threads",
  type: "integer",
  min: 1,
  metavar: "N",
  default: 1,
  description: "worker threads (output identical for any N)",
} as const;

/** What the splitter options give. */
interface SplitterChoice {
  splitter?: string;
  "spacy-model"?: string;
}

/** The spaCy folder from --spacy-model or CONVKIT_SPACY_MODEL. */
function spacyModelOf(o: SplitterChoice): string | undefined {
  const dir = o["spacy-model"] ?? process.env.CONVKIT_SPACY_MODEL;
  return dir === "" ? undefined : dir;
}

/** The splitter to use: the one asked for, else spacy when a model is there, else the default. */
function chooseSplitter(o: SplitterChoice): { splitter: string; spacyModel?: string } {
  const spacyModel = spacyModelOf(o);
  const splitter = o.splitter ?? (spacyModel ? "spacy" : SPLITTER_NAMES[0]!);
  return { splitter, spacyModel };
}

/** Said once, after an iKAT run without spaCy (not before: a failing run's stderr stays one line). */
function officialPassagesNote(splitter: string): string {
  return `convkit-segment: note: the ${splitter} splitter's passages differ from the official iKAT passages, which spaCy's senter made; for those, ${SPACY_MODEL_HINT} and use --splitter spacy\n`;
}

/** `convkit-segment run`. */
export const segmentRunCommand = defineCommand({
  name: "convkit-segment run",
  summary:
    "Segment documents (ClueWeb22 txt trees or files, iKAT JSONL, TrecWeb, JSONL {id, text}; folders are walked) into passages: JSONL {id, contents, url} (or the same as Parquet), a hash TSV docid<TAB>k<TAB>md5 and iKAT TrecWeb, one set per input file under --out, with a manifest of what they were made from: a run again redoes what changed (inputs, options, formats, convkit's version) and skips the rest.",
  positionals: { name: "INPUT...", description: "files or folders (- for stdin)", min: 1 },
  options: [
    {
      name: "out",
      short: "o",
      type: "string",
      metavar: "DIR",
      default: "out/passages",
      description: "output folder (- : JSONL to stdout)",
    },
    {
      name: "format",
      type: "list",
      choices: ["jsonl", "parquet", "hashes", "trecweb"],
      default: ["jsonl"],
      description:
        "outputs: jsonl (x.jsonl), parquet (x.parquet: the JSONL's passages as a table id, contents, url, and start, end with --offsets; url null where the JSONL has none), hashes (x.hashes.tsv), trecweb (x.trecweb)",
    },
    PARQUET_COMPRESSION_OPTION,
    {
      name: "preset",
      type: "string",
      default: "ikat",
      choices: ["ikat", "msmarco"],
      description:
        "ikat: newlines flattened, ids docid:k, sentences as written; msmarco: text.strip(), ids docid#k, sentences stripped",
    },
    SPLITTER_OPTION,
    SPACY_MODEL_OPTION,
    WINDOW_OPTIONS.window,
    WINDOW_OPTIONS.stride,
    WINDOW_OPTIONS.maxLength,
    {
      name: "id-separator",
      type: "string",
      metavar: "S",
      description: "between docid and passage number (default : for ikat, # for msmarco)",
    },
    {
      name: "url-title",
      type: "boolean",
      description: "msmarco: url and title lines in front of each passage's contents",
    },
    {
      name: "offsets",
      type: "boolean",
      description:
        "add start and end to each passage (jsonl and parquet): where its sentences lie in the document's text, in Unicode code points (Python's text[start:end], not JavaScript's UTF-16 units); with --url-title they locate the passage's text after the url and title lines",
    },
    {
      name: "shard",
      type: "shard",
      metavar: "I/N",
      description: "take input files I, I+N, ... of the sorted list (0-based)",
    },
    THREADS_OPTION,
    {
      name: "queue",
      type: "string",
      metavar: "URL",
      description:
        "run on a queue (redis://HOST:PORT[/DB]): one job per input file, taken by convkit-worker processes on any machine that sees the inputs and --out; waits for the run with one progress line, same outputs and exit codes as a local run",
    },
    {
      name: "run-id",
      type: "string",
      metavar: "ID",
      description:
        "the run's id on the queue (default: derived from inputs, options and --out: the same command is the same run)",
    },
    { name: "detach", type: "boolean", description: "with --queue: submit the run and return" },
  ],
  examples: [
    "convkit-segment run txt/en/en00 --format jsonl,hashes -o passages --threads 2",
    "convkit-segment run txt/en -o /shared/passages --queue redis://10.0.0.5:6379",
    "convkit-segment run --shard 3/20 txt/en -o passages",
    "convkit-segment run --splitter spacy --spacy-model en_core_web_sm/en_core_web_sm-3.4.1 txt/en -o passages",
  ],
  async run(o, positional) {
    const formats: PassageFormat[] = o.format;
    if (positional.length === 0) throw new UsageError("convkit-segment run: give at least one INPUT");
    if (o.out === "-" && (formats.length !== 1 || formats[0] !== "jsonl"))
      throw new UsageError("convkit-segment: -o - writes JSONL only (--format jsonl)");
    const overrides = Object.fromEntries(
      Object.entries({
        window: o.window,
        stride: o.stride,
        maxLength: o["max-length"],
        idSeparator: o["id-separator"],
      }).filter(([, v]) => v !== undefined),
    );
    const { splitter, spacyModel } = chooseSplitter(o);
    // The output folder checked before any work: a file in its place or a read-only parent is one line.
    if (o.out !== "-") await checkOutputDir(o.out);
    const options = {
      inputs: positional,
      out: o.out,
      formats,
      preset: o.preset,
      splitter,
      spacyModel,
      overrides,
      urlTitle: o["url-title"],
      // Only when asked: a queued run's id, derived from these, stays what it was without it.
      ...(o.offsets ? { offsets: true } : {}),
      // Only Parquet's bytes depend on it (and a queued run's id on what is given).
      ...(formats.includes("parquet") ? { compression: o.compression } : {}),
    };
    if (o.queue !== undefined) {
      if (o.out === "-")
        throw new UsageError("convkit-segment: --queue writes to a folder (-o DIR), not stdout");
      if (o.shard)
        throw new UsageError("convkit-segment: --queue shares the inputs among workers itself: drop --shard");
      return segmentOnQueue(o.queue, { ...options, runId: o["run-id"], detach: o.detach });
    }
    if (o["run-id"] !== undefined || o.detach)
      throw new UsageError("convkit-segment: --run-id and --detach go with --queue");
    const t0 = performance.now();
    const progress = startProgress("segment", "docs");
    let last = 0;
    let bytes = 0;
    const s = await runSegmentation({
      ...options,
      shard: o.shard,
      threads: o.threads,
      onProgress: (docs, b) => {
        bytes += b;
        progress.tick(docs - last, b);
        last = docs;
      },
      // A line of its own, clear of the progress line a terminal shows.
      onNote: (line) => process.stderr.write(`${process.stderr.isTTY ? "\r\u001b[K" : ""}${line}\n`),
    });
    progress.done();
    if (splitter !== "spacy" && o.preset === "ikat") process.stderr.write(officialPassagesNote(splitter));
    const secs = (performance.now() - t0) / 1000;
    process.stderr.write(
      `${s.files} files (${s.skipped} already done), ${s.docs} documents, ${s.passages} passages in ${secs.toFixed(2)} s (${Math.round(s.docs / secs)} docs/s, ${(bytes / 2 ** 20 / secs).toFixed(1)} MB/s)\n`,
    );
    return 0;
  },
});

/**
 * A segmentation on the queue: planned here (inputs listed and checked, nothing written), one
 * flow submitted (a unit per input file, the run's end writing the manifest), then watched to
 * its end. Paths are made absolute: the workers run elsewhere.
 */
async function segmentOnQueue(
  url: string,
  o: Omit<SegmentUnitData, "input"> & { inputs: string[]; runId?: string; detach: boolean },
): Promise<number> {
  const address = parseQueueUrl(url);
  const { inputs: given, runId: askedId, detach, ...options } = o;
  const unitData = {
    ...options,
    out: resolve(options.out),
    spacyModel: options.spacyModel === undefined ? undefined : resolve(options.spacyModel),
  };
  const inputs = (await planSegmentation({ ...unitData, inputs: given.map((p) => resolve(p)) })).map((i) => ({
    file: resolve(i.file),
    rel: i.rel,
  }));
  // The inputs' sizes and mtimes are part of the run: a changed input makes a new run (whose units
  // skip the inputs whose outputs are current), not the finished one "not submitted again".
  const stamps = await Promise.all(
    inputs.map(async (i) => {
      const s = await stat(i.file, { bigint: true });
      return `${s.size}:${s.mtimeNs}`;
    }),
  );
  const runId =
    askedId === undefined ? deriveRunId("segment", { unitData, inputs, stamps }) : checkRunId(askedId);
  const plan = {
    runId,
    kind: segmentRunJob,
    payload: { out: unitData.out },
    units: inputs.map((input) => ({ key: input.rel, payload: { ...unitData, input } })),
  };
  return runOnQueue(address, plan, {
    report: stderrReport,
    detach,
    label: "segment",
    items: "docs",
    units: "files",
    what: `${inputs.length} input files`,
    summary: ({ value: s, failed }, secs) =>
      `run ${runId}: ${s.files} files (${s.skipped} already done), ${s.docs} documents, ${s.passages} passages in ${secs.toFixed(2)} s${failed.length ? `; ${failed.length} input files failed (above)` : ""}`,
  });
}

/** `convkit-segment agreement`. */
export const agreementCommand = defineCommand({
  name: "convkit-segment agreement",
  summary:
    "For consecutive official passages k and k+1 of a document (iKAT's passage-text JSONL), a splitter agrees when passage k's text splits into exactly ten sentences and the sixth starts where passage k+1 begins. Prints name<TAB>agreeing/pairs<TAB>percent% per splitter, the default first.",
  options: [
    {
      name: "passages",
      type: "string",
      metavar: "FILE",
      required: true,
      description: "JSONL {doc_id, passage_id, passage_text}",
    },
    {
      ...SPLITTER_OPTION,
      description: "only this splitter (default: every rule-based one, and spacy when a model is given)",
    },
    SPACY_MODEL_OPTION,
  ],
  async run(o) {
    const recs = await collect(
      readJsonl(o.passages, (v, line) => {
        // A record that is not {doc_id, passage_id, passage_text} is bad input, named by its file and line.
        const r = Fields.of(v, inputMismatch(o.passages === "-" ? "<stdin>" : o.passages, { line }));
        const id = r.get("passage_id");
        if (typeof id !== "string" && typeof id !== "number")
          throw r.fail("passage_id", "a string or a number", id);
        return { doc_id: r.string("doc_id"), passage_id: String(id), passage_text: r.string("passage_text") };
      }),
    );
    const pairs = passagePairs(recs);
    const spacyModel = spacyModelOf(o);
    const names =
      o.splitter !== undefined ? [o.splitter] : [...Object.keys(SPLITTERS), ...(spacyModel ? ["spacy"] : [])];
    let out = "";
    for (const name of names) {
      const n = agreeingPairs(pairs, await loadSplitter(name, spacyModel));
      out += `${name}\t${n}/${pairs.length}\t${pairs.length ? ((100 * n) / pairs.length).toFixed(1) : "0.0"}%\n`;
    }
    await writeStdout(out);
    return 0;
  },
});

/** `convkit-segment sentences`. */
export const sentencesCommand = defineCommand({
  name: "convkit-segment sentences",
  summary:
    'Split texts into sentences: reads JSONL {"id", "text"}, writes {"id", "sentences": [...]} in input order (spacy: spaCy\'s `[s.text for s in doc.sents]`; with --tokens also "tokens", "ws" and "sent" as strings of 0/1 per token: a trailing space, a sentence start).',
  positionals: { name: "INPUT", description: "JSONL {id, text} (- for stdin)", min: 1, max: 1 },
  options: [
    {
      name: "out",
      short: "o",
      type: "string",
      metavar: "FILE",
      default: "-",
      description: "output JSONL (- : stdout)",
    },
    SPLITTER_OPTION,
    SPACY_MODEL_OPTION,
    {
      name: "tokens",
      type: "boolean",
      description: "also spaCy's tokens, trailing spaces and sentence starts (spacy splitter)",
    },
    THREADS_OPTION,
  ],
  examples: [
    "convkit-segment sentences --spacy-model en_core_web_sm-3.8.0 texts.jsonl -o sentences.jsonl",
    "convkit-segment sentences --splitter spacy --tokens --threads 2 - < texts.jsonl",
  ],
  async run(o, positional) {
    const { splitter, spacyModel } = chooseSplitter(o);
    await checkOutputPath(o.out);
    const progress = startProgress("sentences", "texts");
    let last = 0;
    await runSentences({
      input: positional[0],
      out: o.out,
      splitter,
      spacyModel,
      tokens: o.tokens,
      threads: o.threads,
      onProgress: (texts, bytes) => {
        progress.tick(texts - last, bytes);
        last = texts;
      },
    });
    progress.done();
    return 0;
  },
});
