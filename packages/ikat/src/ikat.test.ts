import type { IkatRun, IkatTopic } from "@convkit/formats";
import { describe, expect, it } from "vitest";
import { runToTrec, trecToRun } from "./convert.js";
import { evaluatePtkb } from "./evaluate.js";
import { flattenTopics } from "./turns.js";
import { validateRun } from "./validate.js";

const topic: IkatTopic = {
  number: "1-2",
  title: "t",
  ptkb: [
    { id: "1", text: "I live in Rome." },
    { id: "2", text: "I am vegan." },
  ],
  turns: [
    {
      turn_id: 1,
      utterance: "u1",
      resolved_utterance: "r1",
      response: "a1",
      ptkb_provenance: ["2"],
      response_provenance: [],
    },
    {
      turn_id: 2,
      utterance: "u2",
      resolved_utterance: "r2",
      response: "a2",
      ptkb_provenance: ["1", "2"],
      response_provenance: [],
    },
    {
      turn_id: 3,
      utterance: "u3",
      resolved_utterance: "r3",
      response: "a3",
      ptkb_provenance: [],
      response_provenance: [],
    },
  ],
};
const P = (n: number) => `clueweb22-en0001-02-0000${n}:${n}`;

describe("flattenTopics", () => {
  it("turn ids topic_turn, the history strictly before each turn", () => {
    const t = flattenTopics([topic]);
    expect(t.map((x) => x.turn_id)).toEqual(["1-2_1", "1-2_2", "1-2_3"]);
    expect(t[0]!.history).toEqual([]);
    expect(t[2]!.history.map((h) => h.turn_id)).toEqual(["1-2_1", "1-2_2"]);
    expect(t[1]!.ptkb).toEqual({ "1": "I live in Rome.", "2": "I am vegan." });
  });
});

describe("validateRun (2024 rules)", () => {
  const good = () => ({
    run_name: "r",
    run_type: "automatic",
    eval_response: true,
    turns: [
      {
        turn_id: "1-2_1",
        responses: [
          {
            rank: 1,
            text: "an answer",
            ptkb_provenance: ["2"],
            passage_provenance: [
              { id: P(1), score: 2, used: true },
              { id: P(2), score: 2, used: false },
              { id: P(3), score: 1, used: false },
            ],
          },
        ],
      },
    ],
  });
  const errors = (run: unknown, year: 2023 | 2024 | 2025 = 2024) =>
    validateRun(run, [topic], year)
      .filter((f) => f.level === "error")
      .map((f) => f.message);
  it("a good run passes (ties allowed), missing turns are a warning", () => {
    const f = validateRun(good(), [topic], 2024);
    expect(f.filter((x) => x.level === "error")).toEqual([]);
    expect(f.filter((x) => x.level === "warning").map((x) => x.message)).toEqual([
      "2 of the topics' 3 turns have no entry (first: 1-2_2, 1-2_3)",
    ]);
  });
  it("each broken rule is fatal, with its turn", () => {
    const cases: [(r: ReturnType<typeof good>) => void, RegExp][] = [
      [
        (r) => (r.turns[0]!.responses[0]!.passage_provenance[2]!.score = 3),
        /scores must not increase \(3 after 2\)/,
      ],
      [
        (r) => (r.turns[0]!.responses[0]!.passage_provenance[0]!.id = "clueweb22-en1-2-3:4"),
        /id must look like/,
      ],
      [
        (r) => ((r.turns[0]!.responses[0]!.passage_provenance[0] as { used: unknown }).used = "yes"),
        /used must be true or false/,
      ],
      [(r) => (r.turns[0]!.responses[0]!.passage_provenance = []), /1 to 1000 passages, found 0/],
      [(r) => (r.turns[0]!.responses[0]!.ptkb_provenance = ["9"]), /statement 9 is not in the topic's PTKB/],
      [(r) => (r.turns[0]!.turn_id = "1-2_7"), /not a turn of the topics file/],
      [(r) => (r.turns[0]!.responses[0]!.rank = 2), /rank must be 1/],
      [(r) => (r.run_type = "hybrid"), /run_type must be one of/],
      [(r) => ((r as Record<string, unknown>).extra = 1), /unknown field "extra"/],
      [(r) => delete (r as Partial<typeof r>).eval_response, /missing field "eval_response"/],
      [(r) => r.turns.push(r.turns[0]!), /appears twice/],
    ];
    for (const [edit, message] of cases) {
      const r = good();
      edit(r);
      const e = errors(r);
      expect(
        e.some((m) => message.test(m)),
        `${message} in ${JSON.stringify(e)}`,
      ).toBe(true);
    }
    const r = good();
    r.turns[0]!.responses[0]!.passage_provenance = Array.from({ length: 1001 }, (_, i) => ({
      id: P(1).replace(":1", `:${i}`),
      score: 1,
      used: true,
    }));
    expect(errors(r)).toEqual(["response 1: passage_provenance must list 1 to 1000 passages, found 1001"]);
  });
  it("the 250-token limit: a warning in 2024, fatal in 2025", () => {
    const r = good();
    r.turns[0]!.responses[0]!.text = "word ".repeat(251);
    expect(errors(r, 2024)).toEqual([]);
    expect(errors(r, 2025)).toEqual(["response 1: 251 tokens, over the 250-token limit"]);
  });
  it("2023: PTKB provenance objects {id, text, score}", () => {
    const r = good() as Record<string, unknown> & ReturnType<typeof good>;
    delete (r as Partial<typeof r>).eval_response;
    (r.turns[0]!.responses[0]! as { ptkb_provenance: unknown }).ptkb_provenance = [
      { id: "2", text: "I am vegan.", score: 1 },
    ];
    expect(errors(r, 2023)).toEqual([]);
    (r.turns[0]!.responses[0]! as { ptkb_provenance: unknown }).ptkb_provenance = [{ id: "2", score: "x" }];
    expect(errors(r, 2023)).toEqual([
      'response 1 ptkb_provenance[0]: missing field "text"',
      'response 1 ptkb_provenance[0]: score must be a number, found "x"',
    ]);
  });
});

describe("runToTrec / trecToRun", () => {
  const run: IkatRun = {
    run_name: "x",
    run_type: "automatic",
    turns: [
      {
        turn_id: "1-2_1",
        responses: [
          {
            rank: 1,
            text: "",
            passage_provenance: [
              { id: P(1), score: 0.9, used: true },
              { id: P(2), score: 0.6, used: false },
            ],
          },
          {
            rank: 2,
            text: "",
            passage_provenance: [
              { id: P(2), score: 0.9, used: true },
              { id: P(3), score: 0.9, used: false },
            ],
          },
        ],
      },
    ],
  };
  it("first-seen order, each passage once, score·1/(rank+1) as float32 before and after, rank = position", () => {
    // Python's values for generate_run.py's arithmetic on protobuf floats (struct 'f' round trips).
    expect(runToTrec(run).map((l) => [l.docno, l.rank, l.score])).toEqual([
      [P(1), 1, 0.44999998807907104],
      [P(2), 2, 0.30000001192092896],
      [P(3), 3, 0.29999998211860657],
    ]);
  });
  it("back to a submission: trec_eval's order, the top `used` marked used; it validates", () => {
    const back = trecToRun(runToTrec(run), { used: 1 });
    // P(2) and P(3) score 0.6/2 and 0.9/3 as float32: P(2)'s is the larger.
    expect(back.turns[0]!.responses[0]!.passage_provenance.map((p) => [p.id, p.used])).toEqual([
      [P(1), true],
      [P(2), false],
      [P(3), false],
    ]);
    expect(validateRun(back, [topic], 2024).filter((f) => f.level === "error")).toEqual([]);
  });
});

describe("evaluatePtkb", () => {
  it("hand-worked P, R, P@k, MAP over the turns with relevant statements", () => {
    const run: IkatRun = {
      run_name: "x",
      run_type: "automatic",
      turns: [
        {
          turn_id: "1-2_1",
          responses: [{ rank: 1, text: "", ptkb_provenance: ["1", "2"], passage_provenance: [] }],
        },
        {
          turn_id: "1-2_3",
          responses: [{ rank: 1, text: "", ptkb_provenance: ["1"], passage_provenance: [] }],
        },
      ],
    };
    const e = evaluatePtkb(run, [topic]);
    // Turn 1 (relevant {2}): P 1/2, R 1, P@1 0, AP 1/2. Turn 2 (relevant {1,2}) is missing: all 0. Turn 3 has none: out.
    expect(e.perTurn.map((t) => t.turn_id)).toEqual(["1-2_1", "1-2_2"]);
    expect(e.perTurn[0]!.values).toEqual({ P: 0.5, R: 1, "P@1": 0, "P@3": 1 / 3, "P@5": 1 / 5, MAP: 0.5 });
    expect(e.mean.MAP).toBe(0.25);
    expect(e.mean.R).toBe(0.5);
  });
});
