// Column summaries of a filtered list, as the Hugging Face dataset viewer shows them: lengths, shares, histograms.
import { at } from "./checked.js";

/** A text column's lengths in characters (Unicode code points) over every row of the filtered list. */
export interface LengthSummary {
  count: number;
  min: number;
  median: number;
  max: number;
}

/** Code points of `t`: its UTF-16 units less one per surrogate pair (no array per string, as `[...t]` makes). */
function codePoints(t: string): number {
  let n = t.length;
  for (let i = 0; i < t.length - 1; i++) {
    const c = t.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = t.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The lengths' min, median (the mean of the two middle values when even) and max; zeros when empty. */
export function lengths(texts: Iterable<string>): LengthSummary {
  const n: number[] = [];
  for (const t of texts) n.push(codePoints(t));
  n.sort((a, b) => a - b);
  const min = n[0];
  const max = n.at(-1);
  if (min === undefined || max === undefined) return { count: 0, min: 0, median: 0, max: 0 };
  const mid = n.length >> 1;
  return {
    count: n.length,
    min,
    median: n.length % 2 ? at(n, mid) : (at(n, mid - 1) + at(n, mid)) / 2,
    max,
  };
}

/** How an answer starts: `yes`, `no` or neither (ClariQ's answers are free text, most open so). */
export function yesNo(answer: string): "yes" | "no" | "other" {
  const w = /^\s*([a-z]+)/i.exec(answer)?.[1]?.toLowerCase();
  return w === "yes" ? "yes" : w === "no" ? "no" : "other";
}

/** Counts of each value, keys in ascending order (a histogram of a small integer column). */
export function histogram(values: Iterable<number>): Record<string, number> {
  const m = new Map<number, number>();
  for (const v of values) if (!Number.isNaN(v)) m.set(v, (m.get(v) ?? 0) + 1);
  return Object.fromEntries([...m].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v]));
}

/** A list's sort in the URL: a column name, `-` before it for descending. */
export function sorter<T>(
  sort: string | undefined,
  columns: Record<string, (t: T) => number | string>,
): ((a: T, b: T) => number) | undefined {
  if (!sort) return undefined;
  const desc = sort.startsWith("-");
  const key = columns[desc ? sort.slice(1) : sort];
  if (!key) return undefined;
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    // Ties keep the list's own order (Array.prototype.sort is stable).
    const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return desc ? -c : c;
  };
}

/** The Hugging Face viewer's column summaries of a topic list, over all its topics and their rows. */
export interface TopicsSummary {
  topics: number;
  rows: number;
  clarification_need: Record<string, number>;
  answers: { yes: number; no: number; other: number };
  request_length: LengthSummary;
  question_length: LengthSummary;
  answer_length: LengthSummary;
}

/** The column summaries of the Conversations list: over its filtered topics and the contexts the filter keeps. */
export interface ConversationsSummary {
  topics: number;
  contexts: number;
  records: number;
  /** Contexts per level (questions asked before them: the history's length). */
  level: Record<string, number>;
  /** Contexts per number of records (candidate questions asked next). */
  records_per_context: Record<string, number>;
  request_length: LengthSummary;
}

/** The column summaries of an eval dict's filtered entries: how many candidate questions each has. */
export interface EvalDictSummary {
  entries: number;
  /** Entries per number of candidates (the first metric's: the table an entry shows first). */
  candidates: Record<string, number>;
}
