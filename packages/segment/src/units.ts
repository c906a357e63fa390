// Work units of an input file for the pool: whole lines of JSONL bytes, or parsed TrecWeb documents.
import { stat } from "node:fs/promises";
import { detectFormat, readTrecWeb } from "@convkit/formats";
import { errorFromData, InputError, readLineUnits } from "@convkit/io";
import type { SegmentTask } from "./encode.js";

// 512 KiB: few hand-offs (each costs both threads), while the units in flight stay small in memory.
export const UNIT_BYTES = 1 << 19;

/**
 * Work units of an input file: raw JSONL bytes of whole lines (decoded, parsed and counted in the
 * pool, so the reading thread only moves bytes), or parsed documents (TrecWeb).
 */
export async function* units(file: string): AsyncIterable<Pick<SegmentTask, "docs" | "bytes">> {
  // A pipe or FIFO is read once, as JSONL: sniffing its head would take bytes no one gets back.
  const piped = file !== "-" && !(await stat(file)).isFile();
  const fmt = piped ? undefined : await detectFormat(file);
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
  let first = piped;
  for await (const data of readLineUnits(file, UNIT_BYTES)) {
    // TrecWeb needs a second look at its head, which a pipe does not give: said as what it is.
    if (first && /^\s*<DOC>/.test(Buffer.from(data.subarray(0, 64)).toString("latin1")))
      throw new InputError(
        name,
        { line: 1 },
        "JSONL (a pipe or FIFO is read as JSONL; give TrecWeb as a file)",
        "<DOC>",
      );
    first = false;
    yield { bytes: { file: name, data } };
  }
}

/** A unit's error with its line renumbered from the unit's to the file's (`before` lines precede the unit). */
export function inFile(e: unknown, before: number): unknown {
  const err = errorFromData(e);
  if (!(err instanceof InputError) || !("line" in err.location) || before === 0) return err;
  return new InputError(
    err.file,
    { ...err.location, line: err.location.line + before },
    err.expected,
    err.found,
  );
}
