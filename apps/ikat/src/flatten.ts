// convkit-ikat flatten: topics into one record per turn, as JSONL or Parquet.
import { defineCommand, PARQUET_COMPRESSION_OPTION } from "@convkit/cli";
import { IKAT_TURN_SCHEMA, readIkatTopics } from "@convkit/formats";
import { flattenTopics, ikatTurnRow } from "@convkit/ikat";
import { UsageError, writeJsonl } from "@convkit/io";
import { writeParquet } from "@convkit/parquet";
import { onePositional } from "./positional.js";

/** `convkit-ikat flatten`. */
export const flattenCommand = defineCommand({
  name: "convkit-ikat flatten",
  summary:
    "Topics (2023-2025 layouts) into turn records, JSONL or Parquet: turn id topic_turn, utterance, resolved utterance, response, PTKB, provenance, and the history before the turn.",
  positionals: { name: "TOPICS.json", description: "a topics file", min: 1, max: 1 },
  options: [
    {
      name: "out",
      short: "o",
      type: "string",
      default: "-",
      description: "output file (- for stdout)",
    },
    {
      name: "format",
      type: "string",
      choices: ["jsonl", "parquet"],
      default: "jsonl",
      description:
        "jsonl, or parquet (the same rows; ptkb as {id, text} pairs, 2025's lists empty before 2025)",
    },
    PARQUET_COMPRESSION_OPTION,
  ],
  async run(o, args) {
    const file = onePositional(args, "TOPICS.json");
    if (o.format !== "parquet" && o.out.endsWith(".parquet"))
      throw new UsageError(`convkit-ikat flatten: ${o.out} names a Parquet file: add --format parquet`);
    const turns = flattenTopics(await readIkatTopics(file));
    if (o.format === "parquet")
      await writeParquet(
        o.out,
        IKAT_TURN_SCHEMA,
        [turns.map((t) => ikatTurnRow(file === "-" ? "<stdin>" : file, t))],
        {
          codec: o.compression,
        },
      );
    else await writeJsonl(o.out, [turns]);
    return 0;
  },
});
