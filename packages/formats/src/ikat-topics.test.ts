import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { normalizeIkatTopic, readIkatTopics } from "./ikat.js";

const PTKB = ["I like tea.", "I live in Rome.", "I am vegan."];

/** A 2025 topic whose turn fields are Python literals in strings. */
const literalTopic = {
  number: "2-1",
  title: "Food",
  ptkb: PTKB,
  responses: [
    {
      turn_id: "1",
      user_utterance: "'Hi there! It\\'s me'",
      resolved_utterance: "Hi there! It's me",
      response: '"Hello,\\n what\'s up?"',
      relevant_ptkbs: "['I am vegan.', \"I like tea.\"]",
      citations: "['clueweb22-en0001-02-03456:1', 'clueweb22-en0001-02-03456:7']",
    },
    {
      turn_id: "2",
      user_utterance: "'Yes.'",
      resolved_utterance: "'Yes, vegan food.'",
      response: "''",
      relevant_ptkbs: "[]",
      citations: "[]",
    },
  ],
};

describe("2025 topics", () => {
  it("parses the Python literals of each field; relevant statements get their 1-based ids", () => {
    const t = normalizeIkatTopic("t.json", literalTopic, 0);
    expect(t.ptkb[2]).toEqual({ id: "3", text: "I am vegan." });
    expect(t.turns).toEqual([
      {
        turn_id: 1,
        utterance: "Hi there! It's me",
        resolved_utterance: "Hi there! It's me",
        response: "Hello,\n what's up?",
        relevant_ptkbs: ["I am vegan.", "I like tea."],
        citations: ["clueweb22-en0001-02-03456:1", "clueweb22-en0001-02-03456:7"],
        ptkb_provenance: ["3", "1"],
        response_provenance: ["clueweb22-en0001-02-03456:1", "clueweb22-en0001-02-03456:7"],
      },
      {
        turn_id: 2,
        utterance: "Yes.",
        resolved_utterance: "Yes, vegan food.",
        response: "",
        relevant_ptkbs: [],
        citations: [],
        ptkb_provenance: [],
        response_provenance: [],
      },
    ]);
  });

  it("a ptkb list held as a Python literal too", () => {
    const t = normalizeIkatTopic(
      "t.json",
      { ...literalTopic, ptkb: `["I like tea.", 'I live in Rome.', 'I am vegan.']` },
      0,
    );
    expect(t.ptkb).toEqual(normalizeIkatTopic("t.json", literalTopic, 0).ptkb);
    expect(t.turns[0]!.ptkb_provenance).toEqual(["3", "1"]);
    expect(() => normalizeIkatTopic("t.json", { ...literalTopic, ptkb: "['a', 1]" }, 0)).toThrow(
      "t.json: expected a list of statements in topic 2-1 ptkb, found",
    );
  });

  it("reads the same turn given as JSON (ints and lists, as the published file has it)", () => {
    const plain = {
      ...literalTopic,
      responses: [
        {
          turn_id: 1,
          user_utterance: "Hi there! It's me",
          resolved_utterance: "Hi there! It's me",
          response: "Hello,\n what's up?",
          relevant_ptkbs: ["I am vegan.", "I like tea."],
          citations: ["clueweb22-en0001-02-03456:1", "clueweb22-en0001-02-03456:7"],
        },
      ],
    };
    expect(normalizeIkatTopic("t.json", plain, 0).turns[0]).toEqual(
      normalizeIkatTopic("t.json", literalTopic, 0).turns[0],
    );
    // Quotes in a plain (JSON-typed) turn are text, never parsed.
    const quoted = { ...plain, responses: [{ ...plain.responses[0], user_utterance: "'quoted'" }] };
    expect(normalizeIkatTopic("t.json", quoted, 0).turns[0]!.utterance).toBe("'quoted'");
  });

  it.each([
    ["user_utterance", "'unterminated", "a Python string literal in topic 2-1 turn 0 user_utterance"],
    ["response", "'a', 'b'", "a Python string literal in topic 2-1 turn 0 response"],
    ["citations", "['a', ", "a Python list literal in topic 2-1 turn 0 citations"],
    ["citations", "'a'", "a list in topic 2-1 turn 0 citations"],
    ["relevant_ptkbs", "[['x']]", "a list of strings or ints in topic 2-1 turn 0 relevant_ptkbs"],
    ["turn_id", "'one'", "a turn with an int turn_id in topic 2-1 turn 0"],
  ])("a bad %s (%j) is one InputError line", async (field, value, expected) => {
    const dir = tempDir();
    const f = join(dir, "topics.json");
    const turn = { ...literalTopic.responses[0], [field]: value };
    writeFileSync(f, JSON.stringify([{ ...literalTopic, responses: [turn] }]));
    const err = await readIkatTopics(f).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.name).toBe("InputError");
    expect(err?.message).toContain(`topics.json: expected ${expected}`);
    expect(err?.message).not.toContain("\n");
  });
});
