// `convkit-segment sentences`: texts (JSONL {id, text}) into their sentences, in input order, with
// spaCy's tokens on request; batches go through the same pool as passages.
import { ByteBuilder, InputError, readLineUnits, UsageError, writeAtomic } from "@convkit/io";
import { inOrder } from "@convkit/pool";
import { forEachJsonLine, type JsonlBytes } from "./encode.js";
import { IKAT, sentenceTexts } from "./passages.js";
import { openSegmentPool, UNITS_AHEAD_PER_THREAD } from "./pool.js";
import { checkSplitter, loadSplitter, refusedTextError, spacyPipelineOf, splitterFor } from "./splitters.js";
import { inFile, UNIT_BYTES } from "./units.js";

/** One batch of texts (plain data: it crosses to worker threads). */
export interface SentencesTask {
  kind: "sentences";
  bytes: JsonlBytes;
  splitter: string;
  spacyModel?: string;
  /** The `spacy` splitter's share of the default cache sizes (1/N for each of N worker threads). */
  cacheShare?: number;
  /** Also write spaCy's `tokens`, `ws` and `sent` (the spacy splitter only). */
  tokens?: boolean;
}

/** A batch's output lines. */
export interface SentencesResult {
  jsonl: Uint8Array;
  texts: number;
  lines: number;
  inputBytes: number;
}

/**
 * Sentences of each line's text: spaCy's `[s.text for s in doc.sents]` with the spacy splitter;
 * for the rule-based ones each sentence runs to the next start, a single space between them dropped.
 */
export function encodeSentencesTask(t: SentencesTask): SentencesResult {
  const out = new ByteBuilder();
  const pipeline = t.splitter === "spacy" ? spacyPipelineOf(t.spacyModel, t.cacheShare) : undefined;
  const split = pipeline ? undefined : splitterFor(t.splitter, t.spacyModel);
  let texts = 0;
  const lines = forEachJsonLine(t.bytes, (v, line) => {
    const r = v as { id?: unknown; text?: unknown } | null;
    if (
      typeof r !== "object" ||
      r === null ||
      Array.isArray(r) ||
      typeof r.text !== "string" ||
      r.id === undefined
    )
      throw new InputError(
        t.bytes.file,
        { line },
        'an object {"id", "text"} with a string text',
        JSON.stringify(v).slice(0, 40),
      );
    texts++;
    let rec: Record<string, unknown>;
    if (pipeline) {
      try {
        if (t.tokens) {
          const doc = pipeline.doc(r.text);
          rec = { id: r.id, sentences: doc.sentences, tokens: doc.tokens, ws: doc.ws, sent: doc.sent };
        }
        // Sentences alone: no token texts or flag strings built only to be dropped.
        else rec = { id: r.id, sentences: pipeline.sentences(r.text) };
      } catch (e) {
        throw refusedTextError(e, t.bytes.file, line, "a text");
      }
    } else rec = { id: r.id, sentences: sentenceTexts(r.text, split!(r.text), IKAT) };
    out.string(`${JSON.stringify(rec)}\n`);
  });
  return { jsonl: out.take(), texts, lines, inputBytes: t.bytes.data.length };
}

/** Options of {@link runSentences}. */
export interface SentencesJobOptions {
  /** JSONL {id, text}; `-` is stdin. */
  input: string;
  /** Output JSONL; `-` is stdout. */
  out: string;
  splitter: string;
  spacyModel?: string;
  tokens?: boolean;
  threads?: number;
  /** Longest line (one text) read, in bytes; a longer one is bad input (default: the process's line cap, `inputLimits` of @convkit/io). */
  maxLineBytes?: number;
  onProgress?: (texts: number, bytes: number) => void;
}

/** Splits every text of a JSONL file; the output appears atomically, lines in input order for any thread count. */
export async function runSentences(o: SentencesJobOptions): Promise<{ texts: number }> {
  if (o.tokens && o.splitter !== "spacy")
    throw new UsageError("--tokens needs the spacy splitter (spaCy's tokens)");
  // Checked here, before any worker starts or output appears: a bad folder or name is one line.
  const threads = o.threads ?? 1;
  await (threads > 1 ? checkSplitter : loadSplitter)(o.splitter, o.spacyModel);
  const pool = threads > 1 ? await openSegmentPool<SentencesTask, SentencesResult>(threads) : undefined;
  const name = o.input === "-" ? "<stdin>" : o.input;
  let texts = 0;
  try {
    await writeAtomic(o.out, async (sink) => {
      const start = (data: Uint8Array) => {
        const task: SentencesTask = {
          kind: "sentences",
          bytes: { file: name, data },
          splitter: o.splitter,
          spacyModel: o.spacyModel,
          // Each worker's caches a share of one thread's: the same memory at any thread count.
          cacheShare: pool ? 1 / threads : undefined,
          tokens: o.tokens,
        };
        return pool
          ? pool.run(task, [data.buffer as ArrayBuffer])
          : Promise.resolve().then(() => encodeSentencesTask(task));
      };
      // Lines of the file before the unit at hand: results come in order, so this numbers its errors.
      let linesBefore = 0;
      for await (const r of inOrder(
        readLineUnits(o.input, UNIT_BYTES, o.maxLineBytes),
        start,
        UNITS_AHEAD_PER_THREAD * threads + 1,
        (e) => inFile(e, linesBefore),
      )) {
        linesBefore += r.lines;
        texts += r.texts;
        await sink.write(r.jsonl);
        o.onProgress?.(texts, r.inputBytes);
      }
    });
  } finally {
    await pool?.destroy();
  }
  return { texts };
}
