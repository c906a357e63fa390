// A topic's values as the byte path keeps them: numbers and bytes, not an object per value.
import { formatTopicLines, type TopicResult } from "./evaluate.js";

/**
 * One topic's values as numbers (in the order of its Value list), and its -q lines when asked
 * for, as UTF-8 bytes: a string built line by line is a tree of pieces on the heap, which the
 * garbage collector would otherwise carry (and copy) until the end; bytes are one flat block.
 */
export interface TopicValues {
  qid: string;
  values: Float64Array;
  lines: Uint8Array;
}

const NO_LINES = new Uint8Array(0);

export function compact(t: TopicResult, lines: boolean): TopicValues {
  const values = new Float64Array(t.values.length);
  t.values.forEach((v, i) => {
    values[i] = v.value;
  });
  return { qid: t.qid, values, lines: lines ? Buffer.from(formatTopicLines(t), "utf8") : NO_LINES };
}
