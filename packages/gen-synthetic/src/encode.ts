// Batches of synthetic records into bytes: JSON Lines and context TSV rows (pure; runs in workers).
import type { SyntheticRecord } from "@convkit/formats";
import type { ByteBuilder } from "@convkit/io";
import {
  contextId,
  itemCount,
  planItem,
  recordId,
  type TopicNumbers,
  type TopicPlan,
  twoTurnHistories,
} from "@convkit/synthetic-plan";

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

const utf8 = (s: string) => Buffer.from(s, "utf8");
const REC = utf8('{"record_id":');
const CTX = utf8(',"conversation_context":');
const CID = utf8(',"context_id":');
const END = utf8("}\n");
const EMPTY_LIST = utf8("[]");

/**
 * JSON Lines of one history length of a topic, written as bytes straight from the plan: each
 * item's question/answer and each context's history are encoded once and copied into every
 * record that shares them. Same bytes as {@link encodeJsonl} over the same records.
 */
export function topicJsonl(
  plan: TopicPlan,
  nums: TopicNumbers,
  level: number,
  js: JsonStrings,
  out: ByteBuilder,
): void {
  const F = plan.facets.length;
  const n = itemCount(plan);
  // Per facet (facet order): its index, the bytes before each record's question, each item's
  // `"question":…,"answer":…` as bytes and as a history turn.
  const facets = plan.answers.map((row, f) => {
    const qaText = row.map((it) => `"question":${js.get(it.question)},"answer":${js.get(it.answer)}`);
    return {
      f,
      head: utf8(
        `,"topic_id":${plan.topic_id},"facet_id":${js.get(planItem(plan.facets, f))},"initial_request":${js.get(plan.initial_request)},`,
      ),
      qa: qaText.map(utf8),
      turn: qaText.map((x) => `{${x}}`),
    };
  });
  const line = (fc: (typeof facets)[number], history: number[], x: number, ctx: Uint8Array) => {
    out.bytes(REC);
    out.uint(recordId(nums, F, n, fc.f, history, x));
    out.bytes(fc.head);
    out.bytes(planItem(fc.qa, x));
    out.bytes(CTX);
    out.bytes(ctx);
    out.bytes(CID);
    out.uint(contextId(nums, F, n, fc.f, history));
    out.bytes(END);
  };
  if (level === 0) {
    for (let x = 0; x < n; x++) for (const fc of facets) line(fc, [], x, EMPTY_LIST);
  } else if (level === 1) {
    const one = facets.map((fc) => ({ fc, ctx: fc.turn.map((t) => utf8(`[${t}]`)) }));
    for (let x = 0; x < n; x++)
      for (let y = 0; y < n; y++)
        if (y !== x) for (const { fc, ctx } of one) line(fc, [y], x, planItem(ctx, y));
  } else {
    for (const [a, b] of twoTurnHistories(n, nums.ordered === true))
      for (const fc of facets) {
        const ctx = utf8(`[${planItem(fc.turn, a)},${planItem(fc.turn, b)}]`);
        const h = [a, b];
        for (let c = 0; c < n; c++) if (c !== a && c !== b) line(fc, h, c, ctx);
      }
  }
}
