// ParseDict's coercions and refusals on the iKAT messages, and json.load's reading, as Python does them.
import { type PyJson, PyJsonDecodeError, pyJsonLoadBytes } from "@convkit/formats";
import { describe, expect, it } from "vitest";
import { officialCheck } from "./checker-2023-2024.js";
import { readProtoRun, trecRunText } from "./convert.js";
import { ProtoParseError, parseProtoRun, pyFloat, pyInt } from "./protobuf-json.js";

const parsePyJson = (text: string) => pyJsonLoadBytes(new TextEncoder().encode(text));

/** A 2024 run with one passage whose fields are given as raw JSON. */
const runWith = (response: string, passage = '"id": "clueweb22-en0000-00-00000:0", "score": 1') =>
  `{"run_name": "r", "run_type": "automatic", "turns": [{"turn_id": "1_1", "responses": [{${response}"passage_provenance": [{${passage}}]}]}]}`;
const parse = (text: string, year: 2023 | 2024 = 2024) => parseProtoRun(parsePyJson(text), year);
const passageOf = (text: string) => parse(text).turns[0]!.responses[0]!.passage_provenance[0]!;

describe("protobuf ParseDict on the 2023/2024 run messages", () => {
  // Each value below was given to protobuf 7.36.2's json_format.ParseDict (Python 3.11) on the
  // year's compiled run.proto: what it stored, or the start of its error.
  const score: [string, number | RegExp][] = [
    ["1", 1],
    ["1.5", 1.5],
    ["true", 1],
    ['"1.5"', 1.5],
    ['" 1.5 "', 1.5],
    ['"Infinity"', Number.POSITIVE_INFINITY],
    ['"inf"', Number.POSITIVE_INFINITY],
    ['"1e39"', Number.POSITIVE_INFINITY],
    ['"1_0"', 10],
    ["null", 0],
    ["1e-50", 0],
    ["0.1", Math.fround(0.1)],
    ['"nan"', /Failed to parse score field: Couldn't parse float "nan", use "NaN" instead at iKATRun/],
    ["NaN", /Failed to parse score field: Couldn't parse NaN, use quoted "NaN" instead/],
    ["Infinity", /Couldn't parse Infinity or value too large/],
    ["1e39", /Float value too large/],
    ["3.4028235e38", /Float value too large/],
    ["[]", /float\(\) argument must be a string or a real number, not 'list'/],
    ['"abc"', /Couldn't parse float: abc at /],
  ];
  for (const [raw, want] of score)
    it(`score ${raw}`, () => {
      const text = runWith("", `"id": "x:1", "score": ${raw}`);
      if (typeof want === "number") expect(passageOf(text).score).toBe(want);
      else expect(() => parse(text)).toThrow(want);
    });

  const rank: [string, number | RegExp][] = [
    ["2.0", 2],
    ["1e2", 100],
    ['"3"', 3],
    ['"\\t3"', 3],
    ['"+3"', 3],
    ['"1_000"', 1000],
    ['"\uff13"', 3],
    ['"1e2"', 100],
    ["null", 0],
    ["-2147483648", -2147483648],
    [
      "1.5",
      /Failed to parse rank field: Couldn't parse integer: 1.5 at iKATRun.turns\[0\].responses\[0\].rank/,
    ],
    ['" 3"', /Couldn't parse integer: " 3"/],
    ['"0x10"', /invalid literal for int\(\) with base 10: '0x10'/],
    ["true", /Bool value True is not acceptable for integer field/],
    ["2147483648", /Failed to parse rank field: Value out of range: 2147483648\./],
    ["1e20", /Value out of range: 100000000000000000000/],
    ["Infinity", /Couldn't parse integer: inf/],
  ];
  for (const [raw, want] of rank)
    it(`rank ${raw}`, () => {
      const text = runWith(`"rank": ${raw}, `);
      if (typeof want === "number") expect(parse(text).turns[0]!.responses[0]!.rank).toBe(want);
      else expect(() => parse(text)).toThrow(want);
    });

  it("used, id, text: bools and strings only; unpaired surrogates refused", () => {
    expect(passageOf(runWith("", '"id": "a", "used": true')).used).toBe(true);
    expect(() => parse(runWith("", '"id": "a", "used": 1'))).toThrow(/Expected true or false without quotes/);
    expect(() => parse(runWith("", '"id": 1'))).toThrow(/expected string or bytes-like object, got 'int'/);
    expect(() => parse(runWith("", '"id": "\\ud800"'))).toThrow(/Unpaired surrogate at /);
  });

  it("keys by JSON or proto name, the later one winning; unknown keys refused with the fields listed", () => {
    const t = parse('{"runName": "a", "run_name": "b", "runType": "m", "turns": []}');
    expect(t.run_name).toBe("b");
    expect(() => parse('{"run_name": "r", "team": 1}')).toThrow(
      "Message type \"iKATRun\" has no field named \"team\" at \"iKATRun\".\n Available Fields(except extensions): \"['runName', 'runType', 'evalResponse', 'turns']\"",
    );
    expect(() => parse('{"eval_response": true}', 2023)).toThrow(/has no field named "eval_response"/);
  });

  it("messages: an empty string or list reads as an empty message; null in a list and a non-list are refused", () => {
    expect(parse('{"turns": ["", []]}').turns.map((t) => t.turn_id)).toEqual(["", ""]);
    expect(() => parse('{"turns": ["a"]}')).toThrow(/Message type "Turn" has no field named "a"/);
    expect(() => parse('{"turns": [5]}')).toThrow(
      /Failed to parse turns field: 'int' object is not iterable/,
    );
    expect(() => parse('{"turns": [null]}')).toThrow(
      /null is not allowed to be used as an element in a repeated field at iKATRun.turns\[0\]/,
    );
    expect(() => parse('{"turns": {}}')).toThrow(
      /repeated field turns must be in \[\] which is \{\} at iKATRun/,
    );
  });

  it("2024 PTKB provenance: int32 statement numbers (integral floats and int strings too)", () => {
    const ptkb = (raw: string) =>
      parse(runWith(`"ptkb_provenance": ${raw}, `)).turns[0]!.responses[0]!.ptkb_provenance;
    expect(ptkb('[1, "3", 2.0]')).toEqual([1, 3, 2]);
    expect(() => ptkb("[null]")).toThrow(/null is not allowed/);
    expect(() => ptkb("[1.5]")).toThrow(/Couldn't parse integer: 1.5/);
  });

  it("an error carries the line of the value it stopped at", () => {
    const text =
      '{"run_name": "r", "run_type": "m",\n"turns": [\n{"turn_id": "1_1",\n "responses": [{"rank": "x"}]}]}';
    const e = (() => {
      try {
        parse(text);
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(ProtoParseError);
    expect((e as ProtoParseError).line).toBe(4);
  });
});

describe("Python's json.load and number parsing", () => {
  it("ints and floats apart, big ints exact, NaN and Infinity literals, a repeated key's last value", () => {
    const d = parsePyJson(
      '{"a": 1, "b": 1.0, "c": 123456789012345678901234567890, "d": NaN, "e": -Infinity, "a": 2}',
    );
    expect(d.value).toBeInstanceOf(Map);
    const dict = d.value as Map<string, unknown>;
    expect([...dict.keys()]).toEqual(["a", "b", "c", "d", "e"]);
    expect([...dict.values()]).toEqual([
      2n,
      1,
      123456789012345678901234567890n,
      Number.NaN,
      Number.NEGATIVE_INFINITY,
    ]);
  });
  it("lines: where each value starts, a repeated key keeping its first place's", () => {
    const d = parsePyJson('{"a":\n 1,\n "b": [\n 2,\n\n 3], "a": 4}');
    const dict = d.value as Map<string, PyJson>;
    expect(d.lines.get(dict)).toEqual([2, 3]);
    expect(d.lines.get(dict.get("b") as PyJson[])).toEqual([4, 6]);
  });
  it("nesting: main.py's json.load (two frames down) parses 992 levels, 993 is its RecursionError (Python 3.11, measured)", () => {
    // 17 topics as the 2024 checker expects (their 0 turns are an error it logs and goes past).
    const topics = Array.from({ length: 17 }, (_, i) => ({
      number: String(i),
      title: "",
      ptkb: [],
      turns: [],
    }));
    const nested = (n: number) => new TextEncoder().encode(`${"[".repeat(n)}${"]".repeat(n)}`);
    const first = (n: number) => officialCheck(nested(n), topics, 2024).findings[1]?.message;
    expect(first(992)).toBe("Run file not in the right format (Missing run_name/run_type entry)");
    expect(first(993)).toBe(
      "Run file not in the right format (maximum recursion depth exceeded while decoding a JSON array from a unicode string)",
    );
    // generate_run.py calls json.load from its top level: two levels more.
    expect(() => readProtoRun(nested(994))).toThrow(ProtoParseError);
    expect(() => readProtoRun(nested(995))).toThrow(/maximum recursion depth/);
  });
  it("what it refuses, with Python's message and place", () => {
    // Python 3.11's json.loads messages for the same texts.
    for (const [text, msg] of [
      ["\ufeff{}", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"],
      ['{"a": 1,}', "Expecting property name enclosed in double quotes: line 1 column 9 (char 8)"],
      ["[1,\n 2 x]", "Expecting ',' delimiter: line 2 column 4 (char 7)"],
      ["[01]", "Expecting ',' delimiter: line 1 column 3 (char 2)"],
      ['"a\tb"', "Invalid control character at: line 1 column 3 (char 2)"],
      ["{} x", "Extra data: line 1 column 4 (char 3)"],
      ["", "Expecting value: line 1 column 1 (char 0)"],
    ] as const) {
      expect(() => parsePyJson(text), JSON.stringify(text)).toThrow(PyJsonDecodeError);
      expect(() => parsePyJson(text), JSON.stringify(text)).toThrow(msg);
    }
  });
  it("int() and float() of strings: Unicode digits, underscores, whitespace", () => {
    expect(pyInt(" \u0663\u0661 ")).toBe(31n);
    expect(pyInt("1__0")).toBeUndefined();
    expect(pyInt("1.0")).toBeUndefined();
    expect(pyFloat("1_0.5e1")).toBe(105);
    expect(pyFloat(".5")).toBe(0.5);
    expect(pyFloat("-iNfInItY")).toBe(Number.NEGATIVE_INFINITY);
    expect(pyFloat("1e")).toBeUndefined();
  });
});

describe("generate_run.py's lines", () => {
  it("tabs, first-seen order, float32 scores printed as Python prints them (1e-05, not 1e-5)", () => {
    const text = runWith(
      '"rank": 1, ',
      '"id": "a:1", "score": 0.00002}, {"id": "b:1", "score": 3e16}, {"id": "a:1", "score": 5',
    );
    expect(trecRunText(readProtoRun(new TextEncoder().encode(text)))).toBe(
      "1_1\tQ0\ta:1\t1\t9.999999747378752e-06\tr\n1_1\tQ0\tb:1\t2\t1.5000000408846336e+16\tr\n",
    );
  });
});
