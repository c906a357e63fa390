// The Conversations list's sort (whole list, server side) and column summaries (issue #42), on a tiny synthetic set.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@convkit/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Explorer } from "./explorer.js";

let explorer: Explorer;

const rec = (id: number, topic: number, ctx: number, history: string[], request = `request ${topic}`) =>
  JSON.stringify({
    record_id: id,
    topic_id: topic,
    facet_id: `F${topic}`,
    initial_request: request,
    question: `q${id}`,
    answer: "yes",
    conversation_context: history.map((q) => ({ question: q, answer: "no" })),
    context_id: ctx,
  });

beforeAll(async () => {
  const dir = tempDir("explore-conv-");
  // Topic 1: one level-0 context of 3 records. Topic 2: level 0 (1 record) and level 1 (2 records).
  // Topic 3: one level-0 context of 1 record; its request is the longest (and has an astral char).
  const lines = [
    rec(1, 1, 10, []),
    rec(2, 1, 10, []),
    rec(3, 1, 10, []),
    rec(4, 2, 20, []),
    rec(5, 2, 21, ["q4"]),
    rec(6, 2, 21, ["q4"]),
    rec(7, 3, 30, [], "a longer request 😀"),
  ];
  writeFileSync(join(dir, "syn.jsonl"), `${lines.join("\n")}\n`);
  explorer = await Explorer.open({ synthetic: [join(dir, "syn.jsonl")] });
});

afterAll(async () => {
  await explorer?.close();
});

const get = async (path: string, q = "") => explorer.api(path, new URLSearchParams(q));
const ids = async (q: string) =>
  ((await get("conversations/topics", q)).body as { items: { topic_id: number }[] }).items.map(
    (t) => t.topic_id,
  );

describe("conversations/topics sorted, conversations/summary", () => {
  it("sorts the whole list by a column (then pages it), '-' descending, ties in id order", async () => {
    expect(await ids("sort=contexts")).toEqual([1, 3, 2]);
    expect(await ids("sort=-contexts")).toEqual([2, 1, 3]);
    expect(await ids("sort=-records&limit=1")).toEqual([1]);
    expect(await ids("sort=-records&limit=1&offset=1")).toEqual([2]);
    expect(await ids("sort=request")).toEqual([3, 1, 2]);
    expect((await get("conversations/topics", "sort=bogus")).status).toBe(400);
  });

  it("summarizes every context the filters keep: levels, records per context, request lengths", async () => {
    expect((await get("conversations/summary")).body).toEqual({
      topics: 3,
      contexts: 4,
      records: 7,
      level: { 0: 3, 1: 1 },
      records_per_context: { 1: 2, 2: 1, 3: 1 },
      request_length: { count: 3, min: 9, median: 9, max: 18 },
    });
    expect((await get("conversations/summary", "level=1")).body).toMatchObject({
      topics: 1,
      contexts: 1,
      records: 2,
      level: { 1: 1 },
    });
    expect((await get("conversations/summary", "q=longer")).body).toMatchObject({ topics: 1, records: 1 });
    expect((await get("conversations/summary", "level=9")).status).toBe(400);
  });
});
