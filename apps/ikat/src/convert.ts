// convkit-ikat convert: runs to TREC run lines as the year's generate_run.py writes them, and back.
import { defineCommand } from "@convkit/cli";
import { collect, readIkatRun, readRun, writeRun } from "@convkit/formats";
import { runToTrec, trecToRun } from "@convkit/ikat";
import { writeAtomic } from "@convkit/io";
import { FROM_TREC_2025_OPTIONS, fromTrec2025 } from "./from-trec-2025.js";

/** `convkit-ikat convert`. */
export const convertCommand = defineCommand({
  name: "convkit-ikat convert",
  summary:
    "A run submission to TREC run lines as the official generate_run.py does (per turn, provenance in first-seen order, each passage once, score·1/(response rank + 1), rank = position); with --from-trec, TREC lines back to a submission (one response per turn, provenance in trec_eval's order, the top --used marked used).",
  positionals: { name: "INPUT", description: "RUN.json, or a TREC run with --from-trec", min: 1, max: 1 },
  options: [
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
  async run(o, [input]) {
    if (o["from-trec"]) {
      if (o.year === 2025)
        return fromTrec2025(input!, o.out, {
          teamId: o["team-id"],
          runId: o["run-name"],
          runType: o["run-type"],
        });
      const lines = await collect(readRun(input!));
      const run = trecToRun(lines, {
        runName: o["run-name"],
        runType: o["run-type"],
        used: o.used,
      });
      await writeAtomic(o.out, (s) => s.write(`${JSON.stringify(run, null, 2)}\n`));
      return 0;
    }
    await writeRun(o.out, [runToTrec(await readIkatRun(input!))]);
    return 0;
  },
});
