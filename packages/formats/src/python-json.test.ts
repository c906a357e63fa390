// The Python-faithful JSON layer against Python itself: every expected value below (and in
// testdata/python-json.py311.json) was printed by CPython 3.11.7 from a seeded generator (seed
// 20251128) of JSON texts, sort keys, odd whitespace and newlines; none is our own output.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pyStrip } from "@convkit/pycompat";
import { describe, expect, it } from "vitest";
import { PyException, pyDecodeUtf8, pyJsonDumps, pyJsonLoads } from "./python-json.js";
import { pySortedOrder } from "./python-json-sort.js";
import { pyNfkcTokenCount, pyTextLines } from "./python-json-text.js";
import { pyRepr } from "./python-json-value.js";

interface Cases {
  loads: [string, { ascii: string; unicode: string; repr: string } | { error: string }][];
  sorts: [string, number[] | string][];
  texts: [string, string, number][];
  lines: [string, string[]][];
}
const cases = JSON.parse(
  readFileSync(join(import.meta.dirname, "testdata", "python-json.py311.json"), "utf8"),
) as Cases;

function loadsOrError(s: string): string | ReturnType<typeof pyJsonLoads> {
  try {
    return pyJsonLoads(s);
  } catch (e) {
    if (e instanceof PyException) return `error:${e.pyMessage}`;
    throw e;
  }
}

describe("json.loads / json.dumps as Python 3.11 (120 seeded texts, Python's answers)", () => {
  it("parses what Python parses, to the same dumps (ensure_ascii on and off) and repr", () => {
    for (const [src, want] of cases.loads) {
      const got = loadsOrError(src);
      if ("error" in want) expect(got, src).toBe(`error:${want.error}`);
      else {
        expect(typeof got === "string" && got.startsWith("error:") ? got : "parsed", src).toBe("parsed");
        const v = got as ReturnType<typeof pyJsonLoads>;
        expect(pyJsonDumps(v), src).toBe(want.ascii);
        expect(pyJsonDumps(v, { ensureAscii: false }), src).toBe(want.unicode);
        expect(pyRepr(v), src).toBe(want.repr);
      }
    }
  });

  it("gives Python's messages and code-point positions on a few hand-picked texts", () => {
    // Printed by Python 3.11.7: str(e) of json.loads(s)'s JSONDecodeError (positions in code points).
    const table: [string, string][] = [
      ["", "Expecting value: line 1 column 1 (char 0)"],
      ["\ufeff{}", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"],
      ['{"😀": 1,}', "Expecting property name enclosed in double quotes: line 1 column 9 (char 8)"],
      ['["😀", x]', "Expecting value: line 1 column 7 (char 6)"],
      ['{"a": 1} {}', "Extra data: line 1 column 10 (char 9)"],
      ['"abc', "Unterminated string starting at: line 1 column 1 (char 0)"],
    ];
    for (const [src, msg] of table) expect(loadsOrError(src), src).toBe(`error:${msg}`);
  });

  it("keeps a repeated key at its first position with its last value, ints apart from floats", () => {
    // Python: json.dumps(json.loads('{"a": 1, "b": 2.0, "a": 3, "c": 1e400}')) == '{"a": 3, "b": 2.0, "c": Infinity}'
    expect(pyJsonDumps(pyJsonLoads('{"a": 1, "b": 2.0, "a": 3, "c": 1e400}'))).toBe(
      '{"a": 3, "b": 2.0, "c": Infinity}',
    );
  });
});

describe("list.sort as CPython 3.11's timsort (30 seeded key lists, NaN and mixed types)", () => {
  it("orders as sorted(range(n), key=keys.__getitem__, reverse=True), or fails with the same TypeError", () => {
    for (const [src, want] of cases.sorts) {
      const keys = pyJsonLoads(src) as ReturnType<typeof pyJsonLoads>[];
      let got: number[] | string;
      try {
        got = pySortedOrder(keys, true);
      } catch (e) {
        if (!(e instanceof PyException)) throw e;
        got = e.pyMessage;
      }
      expect(got, src).toEqual(want);
    }
  });
});

describe("Python's text: universal newlines, strip, NFKC split", () => {
  it("strips and counts tokens as s.strip() and len(normalize('NFKC', s.strip()).split())", () => {
    for (const [s, stripped, count] of cases.texts) {
      expect(pyStrip(s), JSON.stringify(s)).toBe(stripped);
      expect(pyNfkcTokenCount(pyStrip(s)), JSON.stringify(s)).toBe(count);
    }
  });

  it("splits lines as a text-mode file iterates them (\\n, \\r, \\r\\n only)", () => {
    for (const [s, want] of cases.lines) {
      // Python's lines end in \n (translated); ours come without it.
      expect(pyTextLines("t", Buffer.from(s, "utf8")), JSON.stringify(s)).toEqual(
        want.map((l) => l.replace(/\n$/, "")),
      );
    }
  });
});

describe("bytes.decode('utf-8')", () => {
  it("refuses what CPython 3.11 refuses, with its UnicodeDecodeError message", () => {
    // Printed by CPython 3.11.7: str(e) of b.decode("utf-8") for each (hex bytes).
    const cases: [string, string][] = [
      ["ff", "byte 0xff in position 0: invalid start byte"],
      ["61c3", "byte 0xc3 in position 1: unexpected end of data"],
      ["c328", "byte 0xc3 in position 0: invalid continuation byte"],
      ["e08080", "byte 0xe0 in position 0: invalid continuation byte"],
      ["e282", "bytes in position 0-1: unexpected end of data"],
      ["e28228", "bytes in position 0-1: invalid continuation byte"],
      ["eda080", "byte 0xed in position 0: invalid continuation byte"],
      ["f09080", "bytes in position 0-2: unexpected end of data"],
      ["f0908028", "bytes in position 0-2: invalid continuation byte"],
      ["f4908080", "byte 0xf4 in position 0: invalid continuation byte"],
      ["80", "byte 0x80 in position 0: invalid start byte"],
      ["c0af", "byte 0xc0 in position 0: invalid start byte"],
      ["f5", "byte 0xf5 in position 0: invalid start byte"],
    ];
    for (const [hex, msg] of cases)
      expect(() => pyDecodeUtf8(Buffer.from(hex, "hex")), hex).toThrow(`'utf-8' codec can't decode ${msg}`);
    expect(pyDecodeUtf8(Buffer.from("efbbbf61", "hex"))).toBe("\ufeffa");
  });
});
