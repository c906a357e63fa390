// `convkit-ikat validate --year 2025`: the verdict of the official validate_trec_ikat25.py (exit 0
// where it exits 0, 2 where it exits 1), its findings with their lines, convkit's own notes beside.
import { PyException, PyJsonDecodeError, pyJsonInputError, pyJsonLoads } from "@convkit/formats";
import { topicTurnIds2025, validateRun2025 } from "@convkit/ikat";
import { openInput, readAll, writeAtomic } from "@convkit/io";
import { printFindings } from "./findings.js";

export interface Validate2025Options {
  topics: string;
  fix?: string | undefined;
  format?: string | undefined;
}

/** The topics' `<number>_<turn_id>` set as the validator loads it; a topics file it cannot use is bad input. */
async function readTopicIds(file: string): Promise<Set<string>> {
  const text = (await readAll(await openInput(file))).toString("utf8");
  try {
    return topicTurnIds2025(pyJsonLoads(text));
  } catch (e) {
    if (e instanceof PyJsonDecodeError) throw pyJsonInputError(file, e, "JSON");
    if (e instanceof PyException) throw pyJsonInputError(file, e, "a list of topics with responses");
    throw e;
  }
}

/** Runs the 2025 path; returns the exit code. */
export async function validate2025(runFile: string, o: Validate2025Options): Promise<number> {
  const ids = await readTopicIds(o.topics);
  const bytes = await readAll(await openInput(runFile));
  const result = validateRun2025(bytes, ids, runFile);
  const findings = result.findings;
  if (o.fix !== undefined) {
    const fixed = result.fixed;
    if (fixed) await writeAtomic(o.fix, (s) => s.write(fixed));
    else
      findings.push({
        level: "warning",
        message: `convkit: the official script writes no .fixed file here; ${o.fix} not written`,
      });
  }
  const verdict = result.crash
    ? `official verdict: FAILED (the script stops ${result.crash.line ? `on line ${result.crash.line}` : "listing turn ids"} with ${result.crash.error})`
    : result.exitCode
      ? `official verdict: FAILED (${result.stdout[result.stdout.length - 1]})`
      : `official verdict: passed (${result.stdout[result.stdout.length - 1]})`;
  await printFindings(runFile, findings, { format: o.format, verdict, verdictWithJsonl: true });
  return result.exitCode ? 2 : 0;
}
