// An iKAT run submission checked field by field through @convkit/json's Fields: one InputError naming the field's path.
import { describe, expect, it } from "vitest";
import { parseIkatRun } from "./ikat.js";

const run = (response: Record<string, unknown>) => ({
  run_name: "r",
  run_type: "automatic",
  turns: [{ turn_id: "1-1_1", responses: [{ rank: 1, text: "t", ...response }] }],
});

describe("parseIkatRun", () => {
  it("keeps the fields the types hold, optional ones only when present", () => {
    const r = parseIkatRun("run.json", {
      ...run({
        passage_provenance: [{ id: "p:1", score: 2, used: true }],
        ptkb_provenance: ["1", { id: 2, text: "s" }],
      }),
      eval_response: false,
      extra: 1,
    });
    expect(r).toEqual({
      run_name: "r",
      run_type: "automatic",
      eval_response: false,
      turns: [
        {
          turn_id: "1-1_1",
          responses: [
            {
              rank: 1,
              text: "t",
              passage_provenance: [{ id: "p:1", score: 2, used: true }],
              ptkb_provenance: ["1", { id: "2", text: "s" }],
            },
          ],
        },
      ],
    });
  });

  it("a field of the wrong type: one line naming its path and what was found", () => {
    const cases: [unknown, string][] = [
      [[], "run.json: expected an object at the top level, found an array"],
      [
        run({ rank: "first" }),
        'run.json: expected a number at run.turns[0].responses[0].rank, found "first"',
      ],
      [
        run({ passage_provenance: [{ id: "p", used: 1 }] }),
        "run.json: expected true or false at run.turns[0].responses[0].passage_provenance[0].used, found 1",
      ],
      [
        run({ ptkb_provenance: [{ id: null }] }),
        "run.json: expected a PTKB id at run.turns[0].responses[0].ptkb_provenance[0].id, found null",
      ],
      [{ run_name: "r", run_type: "manual" }, "run.json: expected an array at run.turns, found nothing"],
    ];
    for (const [doc, message] of cases) expect(() => parseIkatRun("run.json", doc)).toThrow(message);
  });
});
