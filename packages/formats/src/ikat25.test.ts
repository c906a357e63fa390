import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError, messageOf } from "@convkit/io";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { detectFormat } from "./detect.js";
import { formatIkat25Line, parseIkat25Line, rankIkat25References, readIkat25Run } from "./ikat25.js";
import { readAny } from "./read-any.js";

/** A valid 2025 run line as the guidelines' samples write it. */
function turn(id: string) {
  return {
    metadata: { team_id: "t", run_id: "r", run_type: "automatic" },
    turn_id: id,
    references: { "clueweb22-en0001-00-00000:1": 2.5, "clueweb22-en0001-00-00000:2": 1 },
    responses: [
      { text: "An answer.", citations: { "clueweb22-en0001-00-00000:2": 1 }, ptkb_provenance: ["3", 4] },
    ],
  };
}

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return messageOf(e);
  }
  throw new Error("no error");
}

describe("2025 run reader", () => {
  it("reads a line into typed fields, references and citations as ordered pairs, int PTKB ids as digits", () => {
    expect(parseIkat25Line("r.jsonl", JSON.stringify(turn("1-1_1")), 1)).toEqual({
      metadata: { team_id: "t", run_id: "r", run_type: "automatic" },
      turn_id: "1-1_1",
      references: [
        { id: "clueweb22-en0001-00-00000:1", score: 2.5 },
        { id: "clueweb22-en0001-00-00000:2", score: 1 },
      ],
      responses: [
        {
          text: "An answer.",
          citations: [{ id: "clueweb22-en0001-00-00000:2", score: 1 }],
          ptkb_provenance: ["3", "4"],
        },
      ],
    });
  });

  it("keeps the file order of integer-like passage ids (JSON.parse would put them first, ascending)", () => {
    const line =
      '{"metadata": {"team_id": "t", "run_id": "r", "run_type": "manual"}, "turn_id": "1-1_1", ' +
      '"references": {"b": 1, "12": 1, "a\\"x": 3, "3": 1, "12": 5}, ' +
      '"responses": [{"text": "\\"q\\": 1", "citations": {"9": 1, "1": 2}, "ptkb_provenance": []}]}';
    const t = parseIkat25Line("r.jsonl", line, 1);
    // A repeated key keeps its first place and its last value, as Python's json.loads.
    expect(t.references).toEqual([
      { id: "b", score: 1 },
      { id: "12", score: 5 },
      { id: 'a"x', score: 3 },
      { id: "3", score: 1 },
    ]);
    expect(t.responses[0]!.citations.map((c) => c.id)).toEqual(["9", "1"]);
  });

  it("a line without responses has none (as the official validator reads it)", () => {
    const { responses: _, ...t } = turn("1-1_1");
    expect(parseIkat25Line("r.jsonl", JSON.stringify(t), 1).responses).toEqual([]);
  });

  // Each wrong field is one line naming the file, the line and the field's path.
  const mutations: [string, (t: Record<string, unknown>) => void, string][] = [
    ["metadata missing", (t) => delete t.metadata, "expected an object at metadata, found nothing"],
    [
      "team_id an int",
      (t) => {
        t.metadata = { team_id: 1, run_id: "r", run_type: "manual" };
      },
      "expected a string at metadata.team_id, found 1",
    ],
    [
      "run_id missing",
      (t) => {
        t.metadata = { team_id: "t", run_type: "manual" };
      },
      "expected a string at metadata.run_id, found nothing",
    ],
    [
      "run_type null",
      (t) => {
        t.metadata = { team_id: "t", run_id: "r", run_type: null };
      },
      "expected a string at metadata.run_type, found null",
    ],
    ["turn_id an int", (t) => (t.turn_id = 11), "expected a string at turn_id, found 11"],
    [
      "references a list",
      (t) => (t.references = ["a", "b"]),
      'expected an object at references, found ["a","b"]',
    ],
    [
      "a score a string",
      (t) => (t.references = { x: "0.5" }),
      'expected a number (the passage\'s score) at references["x"], found "0.5"',
    ],
    ["responses null", (t) => (t.responses = null), "expected a list at responses, found null"],
    [
      "responses an object",
      (t) => (t.responses = { text: "x" }),
      'expected a list at responses, found {"text":"x"}',
    ],
    ["a response a string", (t) => (t.responses = ["x"]), 'expected an object at responses[0], found "x"'],
    [
      "text missing",
      (t) => (t.responses = [{ citations: {}, ptkb_provenance: [] }]),
      "expected a string at responses[0].text, found nothing",
    ],
    [
      "citations a list",
      (t) => (t.responses = [{ text: "", citations: ["a"], ptkb_provenance: [] }]),
      'expected an object at responses[0].citations, found ["a"]',
    ],
    [
      "a citation score null",
      (t) =>
        (t.responses = [
          { text: "", citations: {}, ptkb_provenance: [] },
          { text: "", citations: { a: null }, ptkb_provenance: [] },
        ]),
      'expected a number (the passage\'s score) at responses[1].citations["a"], found null',
    ],
    [
      "ptkb_provenance missing",
      (t) => (t.responses = [{ text: "", citations: {} }]),
      "expected a list of PTKB ids at responses[0].ptkb_provenance, found nothing",
    ],
    [
      "a PTKB id a float",
      (t) => (t.responses = [{ text: "", citations: {}, ptkb_provenance: ["1", 2.5] }]),
      "expected a PTKB id (a string or an int) at responses[0].ptkb_provenance[1], found 2.5",
    ],
  ];
  it.each(mutations)("%s: one InputError at its line and path", async (_, mutate, message) => {
    const dir = tempDir();
    const f = join(dir, "run.jsonl");
    const bad = turn("1-1_2") as unknown as Record<string, unknown>;
    mutate(bad);
    writeFileSync(f, `${JSON.stringify(turn("1-1_1"))}\n\n${JSON.stringify(bad)}\n`);
    await expect(async () => {
      for await (const _ of readIkat25Run(f));
    }).rejects.toThrow(`run.jsonl:3: ${message}`);
  });

  it("lines stripped as Python strips them: a line of U+001C or U+00A0 is blank, and around JSON no error", async () => {
    const dir = tempDir();
    const f = join(dir, "run.jsonl");
    writeFileSync(
      f,
      `\u001c\u00a0\n\u3000${JSON.stringify(turn("1-1_1"))}\u0085\r\n \n${JSON.stringify(turn("1-1_2"))}`,
    );
    const got = [];
    for await (const b of readIkat25Run(f)) got.push(...b.map((t) => t.turn_id));
    expect(got).toEqual(["1-1_1", "1-1_2"]);
  });

  it("a line that is not an object, or not JSON, is one line", () => {
    expect(errorOf(() => parseIkat25Line("r.jsonl", "[1]", 7))).toBe(
      "r.jsonl:7: expected an object at the top level, found [1]",
    );
    expect(errorOf(() => parseIkat25Line("r.jsonl", '{"a": NaN', 7))).toMatch(
      /^r\.jsonl:7(:\d+)?: expected valid JSON/,
    );
    expect(errorOf(() => parseIkat25Line("r.jsonl", '{"metadata": NaN}', 7))).toBe(
      "r.jsonl:7: expected an object at metadata, found NaN",
    );
  });

  it("NaN, Infinity and -Infinity are numbers, as Python's json.loads reads them (never inside strings)", () => {
    const line =
      '{"metadata": {"team_id": "NaN", "run_id": "a \\" Infinity", "run_type": "x"}, "turn_id": "t", ' +
      '"references": {"a": NaN, "b":-Infinity, "c" : Infinity, "NaN": 1}}';
    const t = parseIkat25Line("r.jsonl", line, 1);
    expect(t.metadata).toEqual({ team_id: "NaN", run_id: 'a " Infinity', run_type: "x" });
    expect(t.references).toEqual([
      { id: "a", score: Number.NaN },
      { id: "b", score: Number.NEGATIVE_INFINITY },
      { id: "c", score: Number.POSITIVE_INFINITY },
      { id: "NaN", score: 1 },
    ]);
    // Written back as json.dumps writes them.
    expect(formatIkat25Line(t)).toContain(
      '"references": {"a": NaN, "b": -Infinity, "c": Infinity, "NaN": 1.0}',
    );
    // A string that is the marker itself stays a string.
    const marker =
      '{"metadata": {"team_id": "\\u0000\\u0001NaN", "run_id": "r", "run_type": "x"}, "turn_id": "t", "references": {"a": NaN}}';
    expect(errorOf(() => parseIkat25Line("r.jsonl", marker, 3))).toMatch(
      /^r\.jsonl:3(:\d+)?: expected valid JSON/,
    );
  });

  it("streams in batches and is detected from content, whichever key comes first", async () => {
    const dir = tempDir();
    const f = join(dir, "run.txt");
    const lines = Array.from({ length: 2500 }, (_, i) => JSON.stringify(turn(`1-1_${i}`)));
    writeFileSync(f, `${lines.join("\n")}\n`);
    let n = 0;
    let batches = 0;
    for await (const b of readIkat25Run(f)) {
      n += b.length;
      batches++;
    }
    expect(n).toBe(2500);
    expect(batches).toBeGreaterThan(1);
    expect(await detectFormat(f)).toBe("ikat25-run");
    const g = join(dir, "other-order.jsonl");
    const { turn_id, references, ...rest } = turn("1-1_1");
    writeFileSync(g, `${JSON.stringify({ turn_id, references, ...rest })}\n`);
    expect(await detectFormat(g)).toBe("ikat25-run");
    // A line with a wrong field is still a 2025 run (and gets its field's error, not another format's).
    const k = join(dir, "bad-metadata.jsonl");
    writeFileSync(k, '{"metadata": 1}\n');
    expect(await detectFormat(k)).toBe("ikat25-run");
    const { format, batches: records } = await readAny(g);
    expect(format).toBe("ikat25-run");
    const all = [];
    for await (const b of records) all.push(...b);
    expect(all).toEqual([parseIkat25Line("g", JSON.stringify(turn("1-1_1")), 1)]);
    // A 2023/2024 run on one line is not a 2025 run.
    const h = join(dir, "old.json");
    writeFileSync(
      h,
      '{"eval_response": true, "run_name": "x", "turns": [{"turn_id": "1", "responses": []}]}',
    );
    expect(await detectFormat(h)).not.toBe("ikat25-run");
  });

  it("ranks references as generate_run.py: descending score, ties in the order given", () => {
    const refs = [
      { id: "a", score: 1 },
      { id: "b", score: 3 },
      { id: "c", score: 1 },
      { id: "d", score: 3 },
      { id: "e", score: -2 },
    ];
    // Python: sorted(refs.items(), key=lambda x: x[1], reverse=True) -> b d a c e (stable).
    expect(rankIkat25References(refs).map((r) => r.id)).toEqual(["b", "d", "a", "c", "e"]);
  });

  it("writes a line as Python's json.dumps does (its bytes, checked against Python 3.11), read back the same", () => {
    const t = {
      metadata: { team_id: "t", run_id: "r", run_type: "automatic" },
      turn_id: "1-1_1",
      references: [
        { id: "p:1", score: 3 },
        { id: "é", score: 1e-7 },
      ],
      responses: [{ text: "Ça", citations: [{ id: "p:1", score: 0.5 }], ptkb_provenance: ["1"] }],
    };
    const line = formatIkat25Line(t);
    expect(line).toBe(
      '{"metadata": {"team_id": "t", "run_id": "r", "run_type": "automatic"}, "turn_id": "1-1_1", "references": {"p:1": 3.0, "\\u00e9": 1e-07}, "responses": [{"text": "\\u00c7a", "citations": {"p:1": 0.5}, "ptkb_provenance": ["1"]}]}',
    );
    expect(parseIkat25Line("r.jsonl", line, 1)).toEqual(t);
  });
});
