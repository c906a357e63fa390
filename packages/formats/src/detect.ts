// Recognizing a file's format from its content where the name does not say.
import { looksLikeTar, openInput, peek } from "@convkit/io";
import { isParquetHead, openParquet } from "@convkit/parquet";
import { trecTableKind } from "./trec-parquet.js";

/** Every format the readers know. */
export const FORMATS = [
  "clariq-topics",
  "clariq-test-topics",
  "question-bank",
  "human-multi-turn",
  "qrels",
  "run",
  "clarification-need-run",
  "multi-turn-run",
  "qulac-json",
  "ikat-topics",
  "ikat-run",
  "ikat25-run",
  "passages",
  "passage-hashes",
  "trecweb",
  "clueweb22",
  "args-me",
  "touche-topics",
  "pickle",
  "tar",
] as const;

export type FormatName = (typeof FORMATS)[number];

/** Guesses the format of `path` from its first bytes (after decompression). */
export async function detectFormat(path: string): Promise<FormatName | undefined> {
  const src = await openInput(path);
  const { head, close } = await peek(src.chunks, 4096);
  // Only the head is needed: stop the stream (and a decompressor process behind it) whatever the answer.
  await close();
  if (looksLikeTar(head)) return "tar";
  // A Parquet table is a run or qrels by its columns (its footer is read; stdin cannot be reread).
  if (isParquetHead(head)) return path === "-" ? undefined : trecTableKind((await openParquet(path)).columns);
  if (head[0] === 0x80 && head[1] !== undefined && head[1] <= 5) return "pickle";
  const lines = new TextDecoder("utf-8").decode(head).split("\n");
  return detectFromText(lines.filter((l) => l.trim() !== "").slice(0, 5));
}

/** The format the first non-blank lines of a text file say it is. */
export function detectFromText(lines: string[]): FormatName | undefined {
  const first = lines[0] ?? "";
  const head = lines.join(" ").replace(/\s+/g, " ");
  if (first.startsWith("topic_id\tinitial_request\ttopic_desc")) return "clariq-topics";
  if (first === "topic_id\tinitial request") return "clariq-test-topics";
  if (first === "question_id\tquestion") return "question-bank";
  if (first.startsWith("\tUnnamed: 0\ttopic_id")) return "human-multi-turn";
  if (/^\{ ?"topic_id" ?: ?\{/.test(head)) return "qulac-json";
  if (/^\{ ?"arguments"/.test(head)) return "args-me";
  if (first.startsWith("<DOC>")) return "trecweb";
  if (/^<\?xml|^<topics[\s>]/.test(first)) return "touche-topics";
  if (first.startsWith('{"ClueWeb22-ID"')) return "clueweb22";
  if (/^\{\s*"id"\s*:/.test(first) && first.includes('"contents"')) return "passages";
  if (/^\[ ?\{ ?"number"/.test(head)) return "ikat-topics";
  if (/^\{ ?"(run_name|run_type|turns)"/.test(head)) return "ikat-run";
  // A 2025 run is JSON Lines: the first line is a whole turn, its keys in any order (only the
  // head is read, and a turn's line may be longer: any one of its keys says it).
  // A 2023/2024 run on one line has "turns" (and "responses" in them).
  if (
    /^\uFEFF?\{/.test(first) &&
    /"(metadata|references|responses)"\s*:/.test(first) &&
    !/"turns"\s*:/.test(first)
  )
    return "ikat25-run";
  if (/^\S+\t\d+\t[0-9a-f]{32}$/.test(first)) return "passage-hashes";
  if (/^\d+ \S+ ".*" -?\d+ \S+ \S+$/.test(first)) return "multi-turn-run";
  const ws = first.trim().split(/\s+/);
  if (ws.length === 6) return "run";
  if (ws.length === 4) return "qrels";
  if (/^\d+\s+\d+$/.test(first.trim())) return "clarification-need-run";
  return undefined;
}
