// JSON Lines input: one JSON value per line, parse errors located by line.
import { openInput, readLineBatches } from "@convkit/io";
import { parseJsonText } from "@convkit/json";
import { displayName } from "./table.js";

/** Values of a JSONL file (any compression), in batches; blank lines are skipped. */
export async function* readJsonl<T = unknown>(
  path: string,
  check?: (v: unknown, line: number) => T,
): AsyncIterable<T[]> {
  const src = await openInput(path);
  const file = displayName(path);
  for await (const b of readLineBatches(src)) {
    const out: T[] = [];
    for (let i = 0; i < b.lines.length; i++) {
      const l = b.lines[i]!;
      if (l.trim().length === 0) continue;
      const v = parseJsonText(file, l, b.firstLine + i);
      out.push(check ? check(v, b.firstLine + i) : (v as T));
    }
    if (out.length > 0) yield out;
  }
  void src;
}
