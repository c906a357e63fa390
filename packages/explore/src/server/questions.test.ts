// The question page's route on a small ClariQ-shaped folder: contexts asked or candidate with their level, the
// eval values beside MAX and MIN per metric (each metric its own candidates), and 400/404 naming the id.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { dumpPickle, PyFloat, type PyValue } from "@convkit/pickle";
import { tempDir } from "@convkit/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuestionView } from "../shared/question-answers.js";
import { Explorer } from "./explorer.js";

let explorer: Explorer;

const HEAD =
  "topic_id\tinitial_request\ttopic_desc\tclarification_need\tfacet_id\tfacet_desc\tquestion_id\tquestion\tanswer";
const row = (facet: string, qid: string, q: string, a: string) =>
  `8\tI want to know about appraisals.\tappraisals\t2\t${facet}\tdesc of ${facet}\t${qid}\t${q}\t${a}`;
const rec = (id: number, ctx: number, facet: string, q: string, a: string, history: [string, string][]) =>
  JSON.stringify({
    record_id: id,
    topic_id: 8,
    facet_id: facet,
    initial_request: "I want to know about appraisals.",
    question: q,
    answer: a,
    conversation_context: history.map(([question, answer]) => ({ question, answer })),
    context_id: ctx,
  });
const leaf = (n: number, w: number): PyValue =>
  new Map<PyValue, PyValue>([
    ["no_answer", new PyFloat(n)],
    ["with_answer", new PyFloat(w)],
  ]);

beforeAll(async () => {
  const dir = tempDir("explore-question-");
  writeFileSync(
    join(dir, "dev.tsv"),
    `${[HEAD, row("F0985", "Q00002", "q two", "a2"), row("F0985", "Q00003", "q three", "a3"), row("F0986", "Q00003", "q three", "b3")].join("\n")}\n`,
  );
  writeFileSync(
    join(dir, "question_bank.tsv"),
    "question_id\tquestion\nQ00001\t\nQ00002\tq two\nQ00003\tq three\n",
  );
  writeFileSync(
    join(dir, "syn.jsonl"),
    `${[
      rec(1, 985, "F0985", "q two", "a2", []),
      rec(2, 985, "F0985", "q three", "a3", []),
      rec(3, 2100, "F0985", "q three", "a3", [["q two", "a2"]]),
    ].join("\n")}\n`,
  );
  // F0986 lists Q00003 in its second metric only: its row comes from the dict alone.
  const dict = new Map<PyValue, PyValue>([
    [
      "NDCG1",
      new Map<PyValue, PyValue>([
        [
          "F0985",
          new Map<PyValue, PyValue>([
            ["Q00003", leaf(0.1, 0.2)],
            ["MAX", leaf(0.5, 0.9)],
            ["MIN", leaf(0, 0)],
          ]),
        ],
        [
          "F0986",
          new Map<PyValue, PyValue>([
            ["Q00002", leaf(0.3, 0.4)],
            ["MAX", leaf(0.3, 0.4)],
            ["MIN", leaf(0.3, 0.4)],
          ]),
        ],
      ]),
    ],
    [
      "P1",
      new Map<PyValue, PyValue>([
        [
          "F0985",
          new Map<PyValue, PyValue>([
            ["Q00003", leaf(0.25, 0.75)],
            ["MAX", leaf(0.5, 1)],
            ["MIN", leaf(0, 0.125)],
          ]),
        ],
        [
          "F0986",
          new Map<PyValue, PyValue>([
            ["Q00003", leaf(0.6, 0.7)],
            ["MAX", leaf(0.6, 0.7)],
            ["MIN", leaf(0, 0)],
          ]),
        ],
      ]),
    ],
  ]);
  writeFileSync(join(dir, "dict.pkl"), dumpPickle(dict));
  explorer = await Explorer.open({
    data: dir,
    synthetic: [join(dir, "syn.jsonl")],
    evalDicts: [join(dir, "dict.pkl")],
  });
});

afterAll(async () => {
  await explorer?.close();
});

const get = (q: string) => explorer.api("question", new URLSearchParams(q));

describe("question route", () => {
  it("lists where a question was asked or is a candidate, with its values beside MAX and MIN per metric", async () => {
    const r = await get("id=Q00003");
    expect(r.status).toBe(200);
    const v = r.body as QuestionView;
    expect(v.question).toBe("q three");
    expect(v.answers.map((a) => `${a.facet_id} ${a.answer}`)).toEqual(["F0985 a3", "F0986 b3"]);
    expect(v.contexts.items.map((c) => `${c.context} ${c.level} ${c.role}`)).toEqual([
      "985 0 candidate",
      "F0986 0 candidate",
      "2100 1 candidate",
    ]);
    const [c985, f0986] = v.contexts.items;
    expect(c985!.conversation).toEqual({ file: 0, context_id: 985 });
    expect(c985!.evals[0]!.metrics).toEqual([
      {
        metric: "NDCG1",
        no_answer: 0.1,
        with_answer: 0.2,
        max: { no_answer: 0.5, with_answer: 0.9 },
        min: { no_answer: 0, with_answer: 0 },
      },
      {
        metric: "P1",
        no_answer: 0.25,
        with_answer: 0.75,
        max: { no_answer: 0.5, with_answer: 1 },
        min: { no_answer: 0, with_answer: 0.125 },
      },
    ]);
    expect(f0986!.evals[0]!.in_dict).toBe(true);
    expect(f0986!.evals[0]!.metrics.map((m) => m.with_answer)).toEqual([undefined, 0.7]);
    // Asked: its history holds it.
    const two = (await get("id=Q00002")).body as QuestionView;
    expect(two.contexts.items.map((c) => `${c.context} ${c.level} ${c.role} ${c.turn ?? ""}`)).toEqual([
      "985 0 candidate ",
      "F0986 0 candidate ",
      "2100 1 asked 1",
    ]);
  });

  it("answers a malformed id 400 and an unknown one 404, both naming id", async () => {
    expect(await get("id=abc")).toEqual({
      status: 400,
      body: { error: 'id must be a question id (Q and digits, as Q00706), not "abc"', parameter: "id" },
    });
    expect(await get("id=Q09999")).toEqual({
      status: 404,
      body: { error: "no question Q09999 in question_bank.tsv or ClariQ's rows", parameter: "id" },
    });
    expect((await get("")).body).toEqual({ error: "id is required", parameter: "id" });
  });
});
