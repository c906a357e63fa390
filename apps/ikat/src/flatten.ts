// convkit-ikat flatten: topics into one JSONL record per turn.
import { defineCommand } from "@convkit/cli";
import { readIkatTopics } from "@convkit/formats";
import { flattenTopics } from "@convkit/ikat";
import { writeJsonl } from "@convkit/io";

/** `convkit-ikat flatten`. */
export const flattenCommand = defineCommand({
  name: "convkit-ikat flatten",
  summary:
    "Topics (2023-2025 layouts) into JSONL turn records: turn id topic_turn, utterance, resolved utterance, response, PTKB, provenance, and the history before the turn.",
  positionals: { name: "TOPICS.json", description: "a topics file", min: 1, max: 1 },
  options: [
    { name: "out", short: "o", type: "string", default: "-", description: "JSONL output (- for stdout)" },
  ],
  async run(o, [file]) {
    const turns = flattenTopics(await readIkatTopics(file!));
    await writeJsonl(o.out, [turns]);
    return 0;
  },
});
