import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { dumpPickle } from "@convkit/pickle";
import { tempDir } from "@convkit/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { apiUrl, parseParams } from "../shared/api.js";
import { histogram, lengths, sorter, yesNo } from "../shared/list-summary.js";
import { plan } from "../shared/views.js";
import { Dataset } from "./dataset.js";
import { EvalDictFile } from "./eval-dicts.js";
import { Explorer } from "./explorer.js";

const HEAD =
  "topic_id\tinitial_request\ttopic_desc\tclarification_need\tfacet_id\tfacet_desc\tquestion_id\tquestion\tanswer";
const row = (t: number, need: number, f: string, q: string, text: string, a: string) =>
  [t, `request ${t}`, `desc ${t}`, need, f, `facet ${f}`, q, text, a].join("\t");

let d: Dataset;
beforeAll(async () => {
  const dir = tempDir("explore-lists-");
  // Topics 1..7 in dev (need 1..4 in turn), 8 and 9 in train; topic 5 asks about worms.
  const dev = Array.from({ length: 7 }, (_, i) =>
    row(
      i + 1,
      (i % 4) + 1,
      `F${i + 1}`,
      `Q0000${i + 2}`,
      i === 4 ? "any worms?" : "which one?",
      i % 2 ? "no" : "yes it is",
    ),
  );
  writeFileSync(
    join(dir, "dev.tsv"),
    `${HEAD}\n${dev.join("\n")}\n${row(3, 3, "F3", "Q00020", "more?", "maybe")}\n`,
  );
  writeFileSync(
    join(dir, "train.tsv"),
    `${HEAD}\n${row(8, 2, "F8", "Q00030", "x", "No.")}\n${row(9, 4, "F9", "Q00031", "y", "y")}\n`,
  );
  d = await Dataset.open(dir, undefined);
});

describe("Dataset.searchTopics: filters, sort, the page of a topic, summaries over the whole filtered list", () => {
  it("matches text and question ids; split filters; the summary counts every filtered topic, not the page", () => {
    expect(d.searchTopics("WORM", undefined, 0, 10).items.map((t) => t.topic_id)).toEqual([5]);
    expect(d.searchTopics("Q00020", undefined, 0, 10).items.map((t) => t.topic_id)).toEqual([3]);
    const dev = d.searchTopics("", "dev", 0, 2);
    expect([dev.total, dev.items.length]).toEqual([7, 2]);
    const summary = d.summarizeTopics("", "dev");
    expect(summary.topics).toBe(7);
    expect(summary.rows).toBe(8);
    expect(summary.clarification_need).toEqual({ 1: 2, 2: 2, 3: 2, 4: 1 });
    expect(summary.answers).toEqual({ yes: 4, no: 3, other: 1 });
    expect(summary.question_length).toEqual({ count: 8, min: 5, median: 10, max: 10 });
    expect(d.summarizeTopics("worm", undefined).topics).toBe(1);
  });

  it("sorts the whole list by a column, descending with '-', ties in id order", () => {
    const ids = (s: string) =>
      d.searchTopics("", undefined, 0, 100, { sort: s }).items.map((t) => t.topic_id);
    expect(ids("need")).toEqual([1, 5, 2, 6, 8, 3, 7, 4, 9]);
    expect(ids("-need")).toEqual([4, 9, 3, 7, 2, 6, 8, 1, 5]);
    expect(ids("-rows")[0]).toBe(3);
  });

  it("`at` with no offset opens the page holding that topic; an offset given wins", () => {
    expect(d.searchTopics("", undefined, 0, 3, { at: 8 }).offset).toBe(6);
    expect(d.searchTopics("", undefined, 3, 3, { at: 8 }).offset).toBe(3);
    expect(d.searchTopics("", undefined, 0, 3, { at: 99 }).offset).toBe(0);
  });
});

describe("list summaries", () => {
  it("lengths in code points, the median of an even count the mean of the middle two", () => {
    expect(lengths(["ab", "😀", "abcd", "abc"])).toEqual({ count: 4, min: 1, median: 2.5, max: 4 });
    expect(lengths([])).toEqual({ count: 0, min: 0, median: 0, max: 0 });
    // Code points as [...t] counts them, lone surrogates (one each) and pairs (one per pair) too.
    for (const t of ["\ud83d", "a\ude00b", "\ud83d\ud83d\ude00", "😀😀x", "\ude00\ud83d", ""])
      expect(lengths([t]).max, JSON.stringify(t)).toBe([...t].length);
  });
  it("yes/no by the answer's first word; histograms sorted by value; unknown sort columns ignored", () => {
    expect(["Yes, the", "no.", "nope", " YES", ""].map(yesNo)).toEqual([
      "yes",
      "no",
      "other",
      "yes",
      "other",
    ]);
    expect(histogram([3, 1, 3, Number.NaN, 10])).toEqual({ 1: 1, 3: 2, 10: 1 });
    expect(Object.keys(histogram([10, 2]))).toEqual(["2", "10"]);
    expect(sorter<number>("bogus", { v: (x) => x })).toBeUndefined();
  });
});

/** A dict of three entries: F0985 with 2 candidates, F1098 and F2000 with 1. */
const dictFile = () => {
  const v = (x: number) =>
    new Map([
      ["no_answer", x],
      ["with_answer", x],
    ]);
  const ctx = (qs: string[]) =>
    new Map([
      ...qs.map((q): [string, Map<string, number>] => [q, v(0.5)]),
      ["MAX", v(0.75)],
      ["MIN", v(0.25)],
    ]);
  const dict = new Map([
    [
      "NDCG1",
      new Map([
        ["F0985", ctx(["Q00706", "Q00002"])],
        ["F1098", ctx(["Q00003"])],
        ["F2000", ctx(["Q00706"])],
      ]),
    ],
  ]);
  const path = join(tempDir("explore-lists-dict-"), "d.pkl");
  writeFileSync(path, dumpPickle(dict));
  return path;
};

describe("EvalDictFile.search", () => {
  it("ids anywhere in an entry id (any case), or entries whose candidates include a searched question", async () => {
    const path = dictFile();
    const d = await EvalDictFile.open(path);
    try {
      expect(await d.search("")).toEqual(["F0985", "F1098", "F2000"]);
      expect(await d.search("98")).toEqual(["F0985", "F1098"]);
      expect(await d.search("f20")).toEqual(["F2000"]);
      expect(await d.search("Q00706", new Set(["Q00706"]))).toEqual(["F0985", "F2000"]);
      expect(await d.search("cholesterol", new Set(["Q00002", "Q00003"]))).toEqual(["F0985", "F1098"]);
      expect(await d.search("Q09999", new Set(["Q09999"]))).toEqual([]);
    } finally {
      await d.close();
    }
  });
});

describe("evaldict/contexts sorted, evaldict/summary", () => {
  it("sorts the whole filtered list by id or candidate count ('-': descending, ties in dict order); summary of candidates per entry", async () => {
    const e = await Explorer.open({ evalDicts: [dictFile()] });
    try {
      const ids = async (q: string) =>
        (
          (await e.api("evaldict/contexts", new URLSearchParams(q))).body as { items: { id: string }[] }
        ).items.map((c) => c.id);
      expect(await ids("sort=-candidates")).toEqual(["F0985", "F1098", "F2000"]);
      expect(await ids("sort=candidates")).toEqual(["F1098", "F2000", "F0985"]);
      expect(await ids("sort=-id&limit=1&offset=1")).toEqual(["F1098"]);
      expect(
        (await e.api("evaldict/contexts", new URLSearchParams("sort=-candidates&limit=1"))).body,
      ).toMatchObject({
        items: [{ id: "F0985", candidates: 2 }],
      });
      expect((await e.api("evaldict/summary", new URLSearchParams())).body).toEqual({
        entries: 3,
        candidates: { 1: 2, 2: 1 },
      });
      expect((await e.api("evaldict/summary", new URLSearchParams("q=F20"))).body).toEqual({
        entries: 1,
        candidates: { 1: 1 },
      });
    } finally {
      await e.close();
    }
  });
});

describe("the lists' URL parameters", () => {
  it("a sort, level or far out of its range is a 400 naming it; a topic alone asks for its page, with an offset not", () => {
    const bad = (path: Parameters<typeof parseParams>[0], q: string) => {
      const r = parseParams(path, new URLSearchParams(q));
      return r.ok ? undefined : r.error.parameter;
    };
    expect(bad("dataset/topics", "sort=bogus")).toBe("sort");
    expect(bad("dataset/topics", "sort=-need&at=250")).toBeUndefined();
    expect(bad("conversations/topics", "level=7")).toBe("level");
    expect(bad("evaldict/contexts", "far=101")).toBe("far");
    expect(
      apiUrl(plan("dataset", { topic: "250" }).list.path, plan("dataset", { topic: "250" }).list.params),
    ).toBe("api/dataset/topics?at=250&limit=100");
    const opened = plan("dataset", { topic: "250", offset: "0" }).list;
    expect(apiUrl(opened.path, opened.params)).toBe(apiUrl("dataset/topics", { limit: 100 }));
  });
});
