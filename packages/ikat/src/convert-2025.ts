// TREC iKAT 2025's generate_run.py reproduced: per line, references by descending score (ties in
// the order given, Python's sort), `turn_id\tQ0\tid\trank\t%.6f\trun_id`; a line it cannot use is
// reported as `[Line N] Error: <Python's exception message>` and skipped, lines already written stay.
import { PyException, type PyJson, pyJsonLoads, pyJsonTypeName, pyStr, pyTextLines } from "@convkit/formats";
import { ByteBuilder } from "@convkit/io";
import { formatFixed, pyStrip } from "@convkit/pycompat";
import { checkEncodable, isDict, pyGet, pySortedItemsDesc } from "./py-ops-2025.js";

export interface Convert2025Result {
  /** The bytes of the TREC run generate_run.py writes. */
  trec: Buffer;
  /** Its stderr lines, one per line it skipped. */
  errors: { line: number; message: string }[];
}

/** Python's `format(score, ".6f")` for a value json.loads made. */
export function pyFormat6f(v: PyJson): string {
  if (typeof v === "number") return fixed6(v);
  if (typeof v === "bigint" || typeof v === "boolean") {
    const x = Number(typeof v === "boolean" ? (v ? 1 : 0) : v);
    if (!Number.isFinite(x)) throw new PyException("OverflowError", "int too large to convert to float");
    return fixed6(x);
  }
  if (typeof v === "string")
    throw new PyException("ValueError", "Unknown format code 'f' for object of type 'str'");
  throw new PyException("TypeError", `unsupported format string passed to ${pyJsonTypeName(v)}.__format__`);
}

function fixed6(x: number): string {
  // Past 2^53 a double is an integer: its exact digits (toFixed switches to exponents at 1e21).
  if (Number.isFinite(x) && Math.abs(x) >= 2 ** 53) return `${BigInt(x)}.000000`;
  return formatFixed(x, 6);
}

/** generate_run.py on a run's bytes. */
export function convertRun2025(file: string, bytes: Uint8Array): Convert2025Result {
  const out = new ByteBuilder();
  const errors: Convert2025Result["errors"] = [];
  const lines = pyTextLines(file, bytes);
  for (let n = 0; n < lines.length; n++) {
    const line = pyStrip(lines[n] as string);
    if (!line) continue;
    try {
      const entry = pyJsonLoads(line);
      const turn = pyGet(entry, "turn_id");
      const references = pyGet(entry, "references", new Map());
      const metadata = pyGet(entry, "metadata", new Map());
      const runName = pyGet(metadata, "run_id", "default_run");
      if (!isDict(references)) throw new PyException("ValueError", "references field must be a dictionary");
      const turnText = pyStr(turn);
      const runText = pyStr(runName);
      // A lone surrogate (what UTF-8 output refuses) can only come from a \uD800-\uDFFF escape.
      const check = /\\u[dD][89a-fA-F]/.test(line);
      const sorted = pySortedItemsDesc(references);
      // A turn's lines built as one string and written once: one encode per turn, not six small
      // writes per line (measured 1.5x faster). A line that raises (its score's format, a lone
      // surrogate) stops the turn there; the lines before it are still written (finally), as the
      // script's line-by-line writes leave them.
      const head = `${turnText}\tQ0\t`;
      const runTail = `\t${runText}\n`;
      let text = "";
      try {
        for (let rank = 0; rank < sorted.length; rank++) {
          const [doc, score] = sorted[rank] as [string, PyJson];
          const line = `${head}${doc}\t${rank + 1}\t${pyFormat6f(score)}${runTail}`;
          if (check) checkEncodable(line);
          text += line;
        }
      } finally {
        out.string(text);
      }
    } catch (e) {
      if (!(e instanceof PyException)) throw e;
      errors.push({ line: n + 1, message: `[Line ${n + 1}] Error: ${e.pyMessage}` });
    }
  }
  // The builder's own buffer handed over: no copy of the whole output (the builder is dropped).
  return { trec: out.handOver(), errors };
}
