// `convkit-ikat convert` of a 2025 run (JSON Lines): the bytes generate_run.py writes, its errors.
import { pyJsonLoads } from "@convkit/formats";
import { convertRun2025 } from "@convkit/ikat";
import { openInput, readAll, writeAtomic } from "@convkit/io";
import { pyStrip } from "@convkit/pycompat";

/**
 * Whether a run is 2025's JSON Lines rather than the 2023/2024 JSON document, from its content:
 * its first non-blank line is a whole JSON object without `turns` (a 2023/2024 run is one
 * object holding `turns`, spread over lines or on one). A first line that is not JSON but is
 * more than a lone `{` or `[`, with no `turns` key in the first MiB, is taken as a broken 2025
 * line, which generate_run.py reports.
 */
export function is2025Jsonl(bytes: Uint8Array): boolean {
  // The first MiB is enough to find the first line; a character it cuts becomes U+FFFD at its end.
  const head = new TextDecoder("utf-8").decode(bytes.subarray(0, 1 << 20));
  const first = head
    .split(/\r\n|\r|\n/)
    .map((l) => pyStrip(l.replace(/^\ufeff/, "")))
    .find((l) => l !== "");
  if (first === undefined || !first.startsWith("{") || first === "{") return false;
  try {
    const v = pyJsonLoads(first);
    return v instanceof Map && !v.has("turns");
  } catch {
    // A 2023/2024 document spread over lines has its first line cut off mid-object: its `turns`
    // key comes later (a key in a JSON string has its quotes escaped, so it cannot match there).
    return !/"turns"\s*:/.test(head);
  }
}

/** Reads the run, writes its TREC lines to `out`, its skipped lines' errors to stderr. Exit 2 if any line was skipped. */
export async function convert2025(file: string, bytes: Uint8Array, out: string): Promise<number> {
  const { trec, errors } = convertRun2025(file, bytes);
  await writeAtomic(out, (s) => s.write(trec));
  // The official lines as they are: each names its line already (`[Line N] Error: …`).
  if (errors.length) process.stderr.write(errors.map((e) => `${e.message}\n`).join(""));
  return errors.length ? 2 : 0;
}

/** The run's bytes (held whole, within --max-input-bytes). */
export async function readRunBytes(file: string): Promise<Uint8Array> {
  return readAll(await openInput(file));
}
