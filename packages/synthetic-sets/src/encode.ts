// Batches of synthetic records into bytes: JSON Lines and context TSV rows (pure; runs in workers).
import type { SyntheticRecord } from "@convkit/formats";

/** JSON text of strings, cached: a topic's questions and answers repeat across thousands of records. */
export class JsonStrings {
  private readonly cache = new Map<string, string>();
  get(s: string): string {
    let j = this.cache.get(s);
    if (j === undefined) {
      j = JSON.stringify(s);
      if (this.cache.size > 200_000) this.cache.clear();
      this.cache.set(s, j);
    }
    return j;
  }
}

/** One record as a JSON line (keys in the ClariQ dict's order, record_id first). */
export function recordJson(r: SyntheticRecord, js: JsonStrings, contextJson?: string): string {
  const ctx =
    contextJson ??
    `[${r.conversation_context.map((t) => `{"question":${js.get(t.question)},"answer":${js.get(t.answer)}}`).join(",")}]`;
  return `{"record_id":${r.record_id},"topic_id":${r.topic_id},"facet_id":${js.get(r.facet_id)},"initial_request":${js.get(r.initial_request)},"question":${js.get(r.question)},"answer":${js.get(r.answer)},"conversation_context":${ctx},"context_id":${r.context_id}}\n`;
}

/** JSON Lines of a batch; each context's history is serialized once per batch. */
export function encodeJsonl(records: readonly SyntheticRecord[], js = new JsonStrings()): string {
  const ctxJson = new Map<number, string>();
  let out = "";
  for (const r of records) {
    let c = ctxJson.get(r.context_id);
    if (c === undefined) {
      c = `[${r.conversation_context.map((t) => `{"question":${js.get(t.question)},"answer":${js.get(t.answer)}}`).join(",")}]`;
      ctxJson.set(r.context_id, c);
    }
    out += recordJson(r, js, c);
  }
  return out;
}
