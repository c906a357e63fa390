// JSON Lines input: one JSON value per line, parse errors located by line.
import { openInput, readLineBatches } from "@convkit/io";
import { parseJsonText } from "@convkit/json";
import { displayName } from "./table.js";

/**
 * Values of a JSONL file (any compression), in batches, each made by `check` (given the parsed
 * value and its line: a reader's Fields check, never a cast); blank lines are skipped.
 */
export async function* readJsonl<T>(
  path: string,
  check: (v: unknown, line: number) => T,
): AsyncIterable<T[]> {
  const src = await openInput(path);
  const file = displayName(path);
  for await (const b of readLineBatches(src)) {
    const out: T[] = [];
    for (const [i, l] of b.lines.entries()) {
      if (l.trim().length === 0) continue;
      const v = parseJsonText(file, l, b.firstLine + i);
      out.push(check(v, b.firstLine + i));
    }
    if (out.length > 0) yield out;
  }
  void src;
}
