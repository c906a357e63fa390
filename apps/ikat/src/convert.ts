// convkit-ikat convert: runs to TREC run lines as the year's generate_run.py writes them, and back.
import { defineCommand } from "@convkit/cli";
import { collect, PyException, pyJsonInputError, readRun } from "@convkit/formats";
import { ProtoParseError, readProtoRun, trecRunText, trecToRun } from "@convkit/ikat";
import { InputError, writeAtomic } from "@convkit/io";
import { convert2025, is2025Jsonl, readRunBytes } from "./convert-2025.js";
import { FROM_TREC_2025_OPTIONS, fromTrec2025 } from "./from-trec-2025.js";
import { onePositional } from "./positional.js";

/** `convkit-ikat convert`. */
export const ikatConvertCommand = defineCommand({
  name: "convkit-ikat convert",
  summary:
    "A run submission to the bytes the year's generate_run.py writes. 2025 (JSON Lines, told from content): per line the references by descending score, ties in the order given, `turn_id\\tQ0\\tid\\trank\\t%.6f\\trun_id`, a line it cannot use reported on stderr as the script reports it (then exit 2, the rest still written). 2023/2024 (json.load and protobuf ParseDict with the year's run.proto, so it accepts and refuses what they do; per turn the passages of every response in first-seen order, never sorted, each once; score = 1/(response rank + 1) · score as a 32-bit protobuf float, printed as Python prints it; rank = position; `turn\\tQ0\\tid\\trank\\tscore\\trun_name`, tab-separated). Where generate_run.py fails (a field it refuses, a response of rank -1), one line and exit 2, nothing written. Output: -o FILE, or stdout without it (generate_run.py writes RUN.json.run in its working folder: -o RUN.json.run gives the same file). With --from-trec, TREC lines back to a submission (one response per turn, provenance in trec_eval's order, the top --used marked used).",
  positionals: { name: "INPUT", description: "RUN.json, or a TREC run with --from-trec", min: 1, max: 1 },
  options: [
    {
      name: "year",
      type: "string",
      choices: ["2023", "2024", "2025"],
      description:
        "the run's year: 2023/2024 say whose run.proto reads the run (default: 2024's, else 2023's where only it reads the run); with --from-trec, 2025 writes a 2025 run skeleton (JSON Lines)",
    },
    { name: "from-trec", type: "boolean", description: "TREC run → submission JSON" },
    { name: "run-name", type: "string", description: "run_name of the submission (default: the TREC tag)" },
    {
      name: "run-type",
      type: "string",
      default: "automatic",
      choices: ["automatic", "manual", "only_response", "generation-only"],
      description: "run_type of the submission",
    },
    { name: "used", type: "integer", min: 0, default: 5, description: "passages marked used per turn" },
    { name: "out", short: "o", type: "string", default: "-", description: "output file (- for stdout)" },
    ...FROM_TREC_2025_OPTIONS,
  ],
  async run(o, args) {
    const input = onePositional(args, "INPUT");
    if (o["from-trec"]) {
      if (o.year === "2025")
        return fromTrec2025(input, o.out, {
          teamId: o["team-id"],
          runId: o["run-name"],
          runType: o["run-type"],
        });
      const lines = await collect(readRun(input));
      const run = trecToRun(lines, {
        runName: o["run-name"],
        runType: o["run-type"],
        used: o.used,
      });
      await writeAtomic(o.out, (s) => s.write(`${JSON.stringify(run, null, 2)}\n`));
      return 0;
    }
    const bytes = await readRunBytes(input);
    const jsonl2025 = is2025Jsonl(bytes);
    if (o.year === "2025" && !jsonl2025)
      // generate_run.py would write an empty file and exit 0: a silent success for a 2023/2024 run.
      throw new InputError(
        input,
        { line: 1 },
        "a 2025 run (JSON Lines, a turn a line) for --year 2025",
        "a 2023/2024 run (run_name, turns): leave out --year 2025",
      );
    if (jsonl2025 && o.year !== undefined && o.year !== "2025")
      throw new InputError(
        input,
        { line: 1 },
        `a ${o.year} run (one JSON object with run_name and turns) for --year ${o.year}`,
        "a 2025 run (JSON Lines, a turn a line): leave out --year or give 2025",
      );
    if (jsonl2025) return convert2025(input, bytes, o.out);
    let text: string;
    try {
      text = trecRunText(
        readProtoRun(bytes, o.year === "2023" ? 2023 : o.year === "2024" ? 2024 : undefined),
      );
    } catch (e) {
      // Python's exceptions of json.load: a decode error, not UTF-8, nested too deep, an over-long int.
      if (e instanceof PyException) throw pyJsonInputError(input, e, "JSON (as Python's json reads it)");
      if (e instanceof ProtoParseError)
        throw new InputError(input, { line: e.line }, "a run generate_run.py reads", e.message);
      throw e;
    }
    await writeAtomic(o.out, (s) => s.write(text));
    return 0;
  },
});
