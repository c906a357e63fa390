// Synthetic conversation records as JSON Lines (what gen:synthetic writes beside its pickle), checked field by field.
import { Fields, inputMismatch } from "@convkit/json";
import { readJsonl } from "./jsonl.js";
import type { SyntheticRecord } from "./records.js";
import { displayName } from "./table.js";

/** One JSON line as a {@link SyntheticRecord}; any other shape is an InputError naming the line and field. */
function syntheticRecordOf(file: string, v: unknown, line: number): SyntheticRecord {
  const f = Fields.of(v, inputMismatch(file, { line }));
  return {
    record_id: f.integer("record_id"),
    topic_id: f.integer("topic_id"),
    facet_id: f.string("facet_id"),
    initial_request: f.string("initial_request"),
    question: f.string("question"),
    answer: f.string("answer"),
    conversation_context: f.objects("conversation_context").map((t) => ({
      question: t.string("question"),
      answer: t.string("answer"),
    })),
    context_id: f.integer("context_id"),
  };
}

/** Records of a synthetic JSONL file (any compression), in batches. */
export function readSyntheticJsonl(path: string): AsyncIterable<SyntheticRecord[]> {
  const file = displayName(path);
  return readJsonl(path, (v, line) => syntheticRecordOf(file, v, line));
}
