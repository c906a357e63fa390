// convkit-ikat convert --from-trec --year 2025: a TREC run to a 2025 run skeleton (JSON Lines).
import { collect, readRun, writeIkat25Run } from "@convkit/formats";
import { trecToIkat25 } from "@convkit/ikat";
import { UsageError } from "@convkit/io";

/** The options `convert` needs for it (spliced into its list). */
export const FROM_TREC_2025_OPTIONS = [
  {
    name: "year",
    type: "integer",
    min: 2023,
    description:
      "with --from-trec: 2025 writes a 2025 run skeleton (JSON Lines) instead of a 2023/2024 submission",
  },
  {
    name: "team-id",
    type: "string",
    default: "team",
    description: "metadata.team_id of a 2025 skeleton (--run-name gives run_id, --run-type run_type)",
  },
] as const;

/** The run types the 2025 guidelines allow. */
const RUN_TYPES_2025 = ["automatic", "manual", "generation-only"];

/** Writes the skeleton of the TREC run `input` to `out`. */
export async function fromTrec2025(
  input: string,
  out: string,
  o: { teamId: string; runId: string | undefined; runType: string },
): Promise<number> {
  if (!RUN_TYPES_2025.includes(o.runType))
    throw new UsageError(
      `convkit-ikat convert: --run-type must be one of ${RUN_TYPES_2025.join(", ")} for 2025, not ${JSON.stringify(o.runType)}`,
    );
  const lines = await collect(readRun(input));
  const turns = trecToIkat25(lines, { team_id: o.teamId, run_id: o.runId, run_type: o.runType, file: input });
  await writeIkat25Run(out, [turns]);
  return 0;
}
