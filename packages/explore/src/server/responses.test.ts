import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IkatTopic } from "@convkit/formats";
import { tempDir } from "@convkit/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { PassageFile } from "./passages.js";
import { ResponseSet, type Run25Turn, shortNames } from "./responses.js";

let dir: string;
let passages: PassageFile[];

const topics: IkatTopic[] = [
  {
    number: "1-1",
    title: "Acid reflux",
    ptkb: [
      { id: "1", text: "I like pizza." },
      { id: "2", text: "I eat late." },
    ],
    turns: [
      {
        turn_id: 1,
        utterance: "Hi there!",
        resolved_utterance: "Hi there!",
        response: "Hello.",
        ptkb_provenance: [],
        response_provenance: [],
      },
      {
        turn_id: 2,
        utterance: "Yes.",
        resolved_utterance: "Yes, stomach acid reflux.",
        response: "Bananas help.",
        ptkb_provenance: ["2"],
        response_provenance: ["docA:3", "docB:1"],
        relevant_ptkbs: ["I eat late.", "A statement not in the list."],
        citations: ["docA:3", "docB:1"],
      },
    ],
  },
];

const meta = (run_id: string) => ({ team_id: "t", run_id, run_type: "automatic" });

async function* batches(turns: Run25Turn[]): AsyncIterable<Run25Turn[]> {
  yield turns;
}

beforeAll(async () => {
  dir = tempDir("explore-responses-");
  // Passage ids in both layouts: `{id, contents}` and iKAT's `{doc_id, passage_id, passage_text}`.
  writeFileSync(
    join(dir, "psg.jsonl"),
    `${JSON.stringify({ id: "docA:3", contents: "Ginger tea soothes." })}\n${JSON.stringify({ id: "docA", contents: "the whole document" })}\n`,
  );
  writeFileSync(
    join(dir, "ikat.jsonl"),
    [
      { doc_id: "docB", passage_id: "0", passage_text: "\nBananas are low in acid.\n" },
      { doc_id: "docB", passage_id: "1", passage_text: "\nOatmeal absorbs acid.\n" },
      { doc_id: "doc:C", passage_id: "7", passage_text: "\nA colon in the document id.\n" },
    ]
      .map((r) => `${JSON.stringify(r)}\n`)
      .join(""),
  );
  passages = [
    await PassageFile.open(join(dir, "psg.jsonl")),
    await PassageFile.open(join(dir, "ikat.jsonl")),
  ];
});

function twoRuns(): { name: string; turns: AsyncIterable<Run25Turn[]> }[] {
  return [
    {
      name: "a.jsonl",
      turns: batches([
        {
          metadata: meta("a"),
          turn_id: "1-1_2",
          references: [
            { id: "docB:1", score: 2 },
            { id: "docA:3", score: 1e-7 },
          ],
          responses: [
            {
              text: "Oatmeal.",
              citations: [
                { id: "docB:1", score: 2 },
                { id: "doc:C:7", score: 0.5 },
                { id: "docZ:9", score: 0.1 },
              ],
              ptkb_provenance: ["2", "9"],
            },
          ],
        },
        // Repeated: the first line counts.
        { metadata: meta("a"), turn_id: "1-1_2", references: [], responses: [] },
        // A turn the topics lack comes after theirs.
        { metadata: meta("a"), turn_id: "9-9_1", references: [], responses: [] },
      ]),
    },
    {
      name: "b.jsonl",
      turns: batches([
        {
          metadata: meta("b"),
          turn_id: "1-1_1",
          references: [{ id: "docA:3", score: 3 }],
          responses: [{ text: "Hi.", citations: [{ id: "docA:3", score: 3 }], ptkb_provenance: [] }],
        },
      ]),
    },
  ];
}

const qrels = new Map([
  [
    "1-1_2",
    new Map([
      ["docB:1", 2],
      ["doc:C:7", 0],
      ["docA:3", 1],
    ]),
  ],
]);

describe("the Responses view's data", () => {
  it("resolves every citation to its passage text in either layout, and its grade for that turn", async () => {
    const s = await ResponseSet.open({ topics, runs: twoRuns(), passages, qrels });
    const t = (await s.turn("1-1_2"))!;
    expect(t.utterance).toBe("Yes.");
    expect(t.resolved_utterance).toBe("Yes, stomach acid reflux.");
    expect(t.gold?.response).toBe("Bananas help.");
    expect(t.gold?.ptkb).toEqual([
      { id: "2", text: "I eat late." },
      { id: null, text: "A statement not in the list." },
    ]);
    // The gold's citations: `{id, contents}` by id, iKAT's passages as DOC:K; grades of this turn.
    expect(t.gold?.citations).toEqual([
      { id: "docA:3", text: "Ginger tea soothes.", grade: 1 },
      { id: "docB:1", text: "Oatmeal absorbs acid.", grade: 2 },
    ]);
    const a = t.runs[0]!;
    expect([a.name, a.run_id, a.references]).toEqual(["a.jsonl", "a", 2]);
    // Its references as generate_run.py ranks them, each with its grade for this turn.
    expect(a.top).toEqual([
      { rank: 1, id: "docB:1", score: 2, grade: 2 },
      { rank: 2, id: "docA:3", score: 1e-7, grade: 1 },
    ]);
    expect(a.responses![0]!.citations).toEqual([
      { id: "docB:1", score: 2, text: "Oatmeal absorbs acid.", grade: 2 },
      // A document id holding a colon: the passage number is after the last one.
      { id: "doc:C:7", score: 0.5, text: "A colon in the document id.", grade: 0 },
      // In no passage file and unjudged: null, not a guess.
      { id: "docZ:9", score: 0.1, text: null, grade: null },
    ]);
    // PTKB ids resolved to the topic's statements (an unknown one kept, without text).
    expect(a.responses![0]!.ptkb).toEqual([
      { id: "2", text: "I eat late." },
      { id: "9", text: null },
    ]);
    // The second run has no line for this turn: said so, not an empty list.
    expect(t.runs[1]!.responses).toBeNull();
    expect(t.runs[1]!.run_id).toBe("b");
    // Grades are per turn: docA:3 is judged for 1-1_2 only.
    const first = (await s.turn("1-1_1"))!;
    expect(first.runs[1]!.responses![0]!.citations[0]).toEqual({
      id: "docA:3",
      score: 3,
      text: "Ginger tea soothes.",
      grade: null,
    });
    expect(first.qrels).toBe(true);
  });

  it("lists the topics' turns in order, then the runs' others; counts relevant citations per run", async () => {
    const s = await ResponseSet.open({ topics, runs: twoRuns(), passages, qrels });
    const list = s.turns("", 0, 50);
    expect(list.items.map((t) => t.id)).toEqual(["1-1_1", "1-1_2", "9-9_1"]);
    expect(list.items[1]).toEqual({
      id: "1-1_2",
      utterance: "Yes.",
      responses: [1, null],
      relevant: [1, null],
    });
    expect(s.turns("stomach", 0, 50).items.map((t) => t.id)).toEqual([]);
    expect(s.turns("YES", 0, 50).items.map((t) => t.id)).toEqual(["1-1_2"]);
    expect(s.turns("9-9", 0, 50).items.map((t) => t.id)).toEqual(["9-9_1"]);
    const extra = (await s.turn("9-9_1"))!;
    expect([extra.utterance, extra.gold, extra.topic, extra.turn, extra.prev, extra.next]).toEqual([
      null,
      null,
      "9-9",
      1,
      "1-1_2",
      null,
    ]);
    expect(await s.turn("nope")).toBeUndefined();
  });

  it("without qrels every grade is null and the summary counts none", async () => {
    const s = await ResponseSet.open({ topics, runs: twoRuns(), passages: [] });
    const t = (await s.turn("1-1_2"))!;
    expect(t.runs[0]!.responses![0]!.citations.map((c) => [c.text, c.grade])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
    expect([t.qrels, t.passages]).toEqual([false, false]);
    expect(s.turns("", 0, 10).items[1]!.relevant).toEqual([null, null]);
  });

  it("writes each run's references as TREC lines with their exact scores (the Runs view ranks them)", async () => {
    const out = [join(dir, "a.trec"), join(dir, "b.trec")];
    await ResponseSet.open({ topics, runs: twoRuns(), passages, trecOut: out });
    expect(readFileSync(out[0]!, "utf8")).toBe("1-1_2 Q0 docB:1 1 2 a\n1-1_2 Q0 docA:3 2 1e-7 a\n");
    expect(readFileSync(out[1]!, "utf8")).toBe("1-1_1 Q0 docA:3 1 3 b\n");
  });

  it("names runs by file, with the folder where two files are alike, never by a whole path", () => {
    expect(shortNames(["/x/000/run.jsonl.gz", "/x/006/run.jsonl.gz", "/y/b.jsonl"])).toEqual([
      "000/run.jsonl.gz",
      "006/run.jsonl.gz",
      "b.jsonl",
    ]);
    expect(shortNames(["/x/0/r", "/y/0/r"])).toEqual(["0/r", "0/r (2)"]);
  });
});

describe("the explorer with 2025 runs", () => {
  const line = (turn: string, score: unknown) =>
    `${JSON.stringify({
      metadata: { team_id: "t", run_id: "r", run_type: "automatic" },
      turn_id: turn,
      references: { "docA:3": score },
      responses: [{ text: "x", citations: {}, ptkb_provenance: [] }],
    })}\n`;

  it("tells 2025 runs from others by content; a bad line is one InputError naming it; no mixing", async () => {
    const { Explorer } = await import("./explorer.js");
    const good = join(dir, "good.jsonl");
    writeFileSync(good, `\uFEFF${line("1-1_1", 1)}`);
    const e = await Explorer.open({ runs: [good], passages: [join(dir, "psg.jsonl")] });
    try {
      expect(e.meta().views.responses).toBe(true);
      expect(e.meta().responses).toEqual({ runs: ["good.jsonl"], turns: 1 });
      const a = await e.api("responses/turn", new URLSearchParams("id=1-1_1"));
      expect(a.status).toBe(200);
      expect((await e.api("responses/turn", new URLSearchParams("id=nope"))).status).toBe(404);
    } finally {
      await e.close();
    }
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, `${line("1-1_1", 1)}${line("1-1_2", "high")}`);
    await expect(Explorer.open({ runs: [bad] })).rejects.toThrow(/bad\.jsonl:2.*references/);
    const trec = join(dir, "x.run");
    writeFileSync(trec, "1-1_1 Q0 docA:3 1 2.5 r\n");
    await expect(Explorer.open({ runs: [good, trec], qrels: trec })).rejects.toThrow(/cannot be mixed/);
  });
});

describe("2025 topics whose fields are Python literals in strings", () => {
  it("shows the parsed utterance, gold response, citations and PTKBs, not the literals", async () => {
    const { Explorer } = await import("./explorer.js");
    const topicsFile = join(dir, "topics25.json");
    writeFileSync(
      topicsFile,
      JSON.stringify([
        {
          number: "1-1",
          title: "Acid reflux",
          ptkb: ["I like pizza.", "I eat late."],
          responses: [
            {
              turn_id: "1",
              user_utterance: "'Hi there!'",
              resolved_utterance: '"Hi there, it\'s me!"',
              response: "'Hello.'",
              relevant_ptkbs: "['I eat late.']",
              citations: "['docA:3']",
            },
          ],
        },
      ]),
    );
    const e = await Explorer.open({ topics: topicsFile, passages: [join(dir, "psg.jsonl")] });
    try {
      const a = await e.api("responses/turn", new URLSearchParams("id=1-1_1"));
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({
        utterance: "Hi there!",
        resolved_utterance: "Hi there, it's me!",
        gold: {
          response: "Hello.",
          citations: [{ id: "docA:3", text: "Ginger tea soothes.", grade: null }],
          ptkb: [{ id: "2", text: "I eat late." }],
        },
        runs: [],
      });
    } finally {
      await e.close();
    }
  });
});

describe("a static page of a turn", () => {
  it("carries a run's text that looks like markup as data, never as the page's own markup", async () => {
    const { Explorer } = await import("./explorer.js");
    const { staticPage } = await import("./static-page.js");
    const evil = "</script><script>alert(1)</script><b>bold</b>";
    const run = join(dir, "evil.jsonl");
    writeFileSync(
      run,
      `${JSON.stringify({
        metadata: { team_id: "t", run_id: "r", run_type: "automatic" },
        turn_id: "1-1_1",
        references: { "docA:3": 1 },
        responses: [{ text: evil, citations: { "docA:3": 1 }, ptkb_provenance: [] }],
      })}\n`,
    );
    const e = await Explorer.open({ runs: [run] });
    try {
      const html = await staticPage(e, "#/responses?turn=1-1_1");
      expect(html).not.toContain("<script>alert(1)");
      expect(html).not.toContain("<b>bold</b>");
      // The text is there, escaped, for the page to show as text.
      expect(html).toContain("\\u003c/script>\\u003cscript>alert(1)");
    } finally {
      await e.close();
    }
  });
});
