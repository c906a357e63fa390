// 2025 runs scored: citations, PTKB and passage rankings, and the TREC-to-skeleton conversion,
// against hand-computed values.
import type { Ikat25Turn, IkatTopic, RunEntry } from "@convkit/formats";
import { InputError } from "@convkit/io";
import { describe, expect, it } from "vitest";
import { evaluateCitations } from "./citations.js";
import { evaluatePtkbRankings, ikat25PassageRankings, ikat25PtkbRankings } from "./evaluate.js";
import { trecToIkat25 } from "./skeleton25.js";

const md = { team_id: "t", run_id: "r", run_type: "automatic" };
const refs = (...xs: [string, number][]) => xs.map(([id, score]) => ({ id, score }));
const resp = (cited: string[], ptkb: string[] = []) => ({
  text: "x",
  citations: cited.map((id) => ({ id, score: 1 })),
  ptkb_provenance: ptkb,
});

describe("evaluateCitations", () => {
  const run: Ikat25Turn[] = [
    {
      metadata: md,
      turn_id: "1-1_1",
      references: refs(["A", 0.9], ["C", 0.8], ["X", 0.7], ["D", 0.5]),
      // B is cited without being among the references: it still counts as cited.
      responses: [resp(["A", "X"]), resp(["C"]), resp(["A", "B"]), resp([])],
    },
    { metadata: md, turn_id: "1-1_2", references: refs(["Q", 1]), responses: [] },
    // Not judged: left out.
    { metadata: md, turn_id: "1-1_3", references: refs(["A", 1]), responses: [resp(["A"])] },
  ];
  const qrels = new Map([
    [
      "1-1_1",
      new Map([
        ["A", 2],
        ["B", 1],
        ["C", 0],
        ["D", 3],
        ["E", 1],
        ["F", -1],
      ]),
    ],
    ["1-1_2", new Map([["P", 1]])],
    ["9-9_9", new Map([["A", 1]])],
  ]);

  it("per turn and over the judged turns (hand-computed)", () => {
    const e = evaluateCitations(run, qrels);
    expect(e.perTurn).toEqual([
      {
        turn_id: "1-1_1",
        // Cited A X C B: relevant (>= 1) A B, >= 2 A; responses 0 and 2 cite a relevant one;
        // relevant A B D E, of which the references hold A D.
        values: {
          num_cited: 4,
          cit_rel: 0.5,
          cit_rel_2: 0.25,
          num_resp: 4,
          resp_supported: 0.5,
          num_rel: 4,
          num_rel_ref: 2,
          ref_recall: 0.5,
        },
      },
      {
        turn_id: "1-1_2",
        values: {
          num_cited: 0,
          cit_rel: 0,
          cit_rel_2: 0,
          num_resp: 0,
          resp_supported: 0,
          num_rel: 1,
          num_rel_ref: 0,
          ref_recall: 0,
        },
      },
    ]);
    // Counts summed, shares averaged over the 2 turns.
    expect(e.all).toEqual({
      num_cited: 4,
      cit_rel: 0.25,
      cit_rel_2: 0.125,
      num_resp: 4,
      resp_supported: 0.25,
      num_rel: 5,
      num_rel_ref: 2,
      ref_recall: 0.25,
    });
  });

  it("relevance level 2: A and D relevant", () => {
    const v = evaluateCitations(run, qrels, 2).perTurn[0]!.values;
    expect([v.cit_rel, v.cit_rel_2, v.resp_supported, v.num_rel, v.num_rel_ref, v.ref_recall]).toEqual([
      0.25, 0.25, 0.5, 2, 2, 1,
    ]);
  });
});

describe("2025 PTKB rankings", () => {
  const topic: IkatTopic = {
    number: "1-1",
    title: "t",
    ptkb: ["a", "b", "c", "d"].map((text, i) => ({ id: String(i + 1), text })),
    turns: [
      {
        turn_id: 1,
        utterance: "",
        resolved_utterance: "",
        response: "",
        ptkb_provenance: ["3", "1"],
        response_provenance: [],
      },
      {
        turn_id: 2,
        utterance: "",
        resolved_utterance: "",
        response: "",
        ptkb_provenance: [],
        response_provenance: [],
      },
      {
        turn_id: 3,
        utterance: "",
        resolved_utterance: "",
        response: "",
        ptkb_provenance: ["2"],
        response_provenance: [],
      },
    ],
  };

  it("every response's ids in order of first mention, scored as the 2023/2024 rankings", () => {
    const ranked = ikat25PtkbRankings([
      {
        metadata: md,
        turn_id: "1-1_1",
        references: [],
        responses: [resp([], ["2", "3"]), resp([], ["3", "1", "4"])],
      },
      { metadata: md, turn_id: "1-1_2", references: [], responses: [resp([], ["1"])] },
    ]);
    expect(ranked.get("1-1_1")).toEqual(["2", "3", "1", "4"]);
    const e = evaluatePtkbRankings(ranked, [topic]);
    // Turn 1: relevant {3, 1} at ranks 2 and 3 of 4; turn 2 has none (left out); turn 3 is missing (0).
    expect(e.perTurn.map((t) => t.turn_id)).toEqual(["1-1_1", "1-1_3"]);
    const v = e.perTurn[0]!.values;
    expect(v.P).toBe(0.5);
    expect(v.R).toBe(1);
    expect(v["P@1"]).toBe(0);
    expect(v["P@3"]).toBeCloseTo(2 / 3, 12);
    expect(v["P@5"]).toBeCloseTo(0.4, 12);
    expect(v.MAP).toBeCloseTo((1 / 2 + 2 / 3) / 2, 12);
    expect(Object.values(e.perTurn[1]!.values)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe("2025 passage rankings", () => {
  it("scores as generate_run.py prints them (%.6f, ties to even), a repeated turn's references added", () => {
    const r = ikat25PassageRankings([
      {
        metadata: md,
        turn_id: "t",
        references: refs(["a", 1.0000004], ["b", 0.0078125], ["c", -1e-7]),
        responses: [],
      },
      { metadata: md, turn_id: "t", references: refs(["d", 2]), responses: [] },
    ]);
    // Python: '%.6f' % 1.0000004 = 1.000000, % 0.0078125 = 0.007812, % -1e-7 = -0.000000.
    expect(r.get("t")).toEqual([
      { docno: "a", score: 1 },
      { docno: "b", score: 0.007812 },
      { docno: "c", score: -0 },
      { docno: "d", score: 2 },
    ]);
  });
});

describe("trecToIkat25", () => {
  const line = (qid: string, docno: string, score: number): RunEntry => ({
    qid,
    q0: "Q0",
    docno,
    rank: 1,
    score,
    tag: "tag1",
  });

  it("turns in first-seen order, references in trec_eval's order, one empty response", () => {
    const t = trecToIkat25(
      [line("t2", "x", 1), line("t1", "q", 0), line("t2", "y", 3), line("t2", "z", 1), line("t2", "w", 3)],
      { team_id: "team", run_type: "manual" },
    );
    expect(t.map((x) => x.turn_id)).toEqual(["t2", "t1"]);
    // Ties by docno descending, as trec_eval sorts: y w, then z x.
    expect(t[0]!.references.map((r) => r.id)).toEqual(["y", "w", "z", "x"]);
    expect(t[0]!.metadata).toEqual({ team_id: "team", run_id: "tag1", run_type: "manual" });
    expect(t[0]!.responses).toEqual([{ text: "", citations: [], ptkb_provenance: [] }]);
  });

  it("the top 1,000 of a turn; a passage twice is an error, as in trec_eval", () => {
    const many = Array.from({ length: 1200 }, (_, i) => line("t", `d${i}`, i));
    const refsOut = trecToIkat25(many, { team_id: "t", run_id: "r", run_type: "automatic" })[0]!.references;
    expect(refsOut.length).toBe(1000);
    expect(refsOut[0]).toEqual({ id: "d1199", score: 1199 });
    expect(refsOut[999]).toEqual({ id: "d200", score: 200 });
    expect(() =>
      trecToIkat25([line("t", "a", 1), line("t", "a", 2)], {
        team_id: "t",
        run_type: "automatic",
        file: "r.trec",
      }),
    ).toThrow(InputError);
  });
});
