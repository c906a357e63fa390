// The one printer of `convkit-ikat validate`'s findings, for every year: text lines on stderr, or
// `--format jsonl` records on stdout (through the checked sink: a full disk or a failing stdout is
// an error, never a silent success).
import type { Finding } from "@convkit/ikat";
import { writeStdout } from "@convkit/io";

/**
 * Prints the findings and the verdict (`FILE: <verdict>`): as text, one line a finding then the
 * verdict, all on stderr; as jsonl, one `{line, level, turn, message}` record a finding on stdout,
 * and the verdict on stderr only with `verdictWithJsonl` (2023/2024's jsonl leaves stderr empty).
 */
export async function printFindings(
  file: string,
  findings: readonly Finding[],
  o: { format?: string | undefined; verdict: string; verdictWithJsonl?: boolean },
): Promise<void> {
  if (o.format === "jsonl") {
    let text = "";
    for (const f of findings)
      text += `${JSON.stringify({ line: f.line ?? null, level: f.level, turn: f.turn ?? null, message: f.message })}\n`;
    await writeStdout(text);
    if (o.verdictWithJsonl) process.stderr.write(`${file}: ${o.verdict}\n`);
    return;
  }
  let text = "";
  // A message's newlines (a protobuf error spans two) escaped: one line a finding.
  for (const f of findings)
    text += `${file}${f.line ? `:${f.line}` : ""}: ${f.level}${f.turn ? ` (turn ${f.turn})` : ""}: ${f.message.replace(/\n/g, "\\n")}\n`;
  process.stderr.write(`${text}${file}: ${o.verdict}\n`);
}
