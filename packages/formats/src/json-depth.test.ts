// JSON nested too deep: one located InputError from every JSON reader of user files, never a
// RangeError from a recursive walk of the parsed value (issue 39, item 4). Inputs are built here.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError, messageOf } from "@convkit/io";
import { checkJsonDepth, JsonDepthScanner, MAX_JSON_DEPTH } from "@convkit/json";
import { rng, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { readIkatRun, readIkatTopics } from "./ikat.js";
import { readJsonl } from "./jsonl.js";
import { QULAC_COLUMNS, readQulacJson } from "./qulac.js";
import { collect } from "./table.js";
import { readArgsMe } from "./touche.js";

const MILLION = 1_000_000;
const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
const TOO_DEEP = new RegExp(
  `expected JSON nested at most ${MAX_JSON_DEPTH} deep, found an array nested deeper$`,
);

/** The error a promise rejects with (a RangeError is returned too, to fail the assertion on its message). */
async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e instanceof Error ? e : new Error(messageOf(e));
  }
  throw new Error("expected a rejection");
}

function write(name: string, text: string): string {
  const f = join(tempDir(), name);
  writeFileSync(f, text);
  return f;
}

describe("JSON depth", () => {
  it("a million-deep array in a Qulac cell is one located line", async () => {
    const cell = (c: string) => (c === "question" ? nested(MILLION) : c.endsWith("_id") ? "1" : '"x"');
    const cols = QULAC_COLUMNS.map((c) => `"${c}":{"0":${cell(c)}}`);
    const f = write("qulac.json", `{${cols.join(",\n")}}`);
    const e = await rejection(readQulacJson(f));
    expect(e).toBeInstanceOf(InputError);
    // The question column is line 10, its cell opens at column 17 two levels deep: the first
    // bracket too deep is its 999th.
    expect(e.message).toMatch(new RegExp(`/qulac\\.json:10:${17 + MAX_JSON_DEPTH - 2}: `));
    expect(e.message).toMatch(TOO_DEEP);
  });

  it("a Qulac cell nested exactly as deep as allowed is an ordinary shape error, shortened", async () => {
    const cell = (c: string) =>
      c === "question" ? nested(MAX_JSON_DEPTH - 2) : c === "topic_id" || c === "facet_id" ? "1" : '"x"';
    const f = write("qulac.json", `{${QULAC_COLUMNS.map((c) => `"${c}":{"0":${cell(c)}}`).join(",")}}`);
    const e = await rejection(readQulacJson(f));
    expect(e).toBeInstanceOf(InputError);
    expect(e.message).toMatch(/qulac\.json: expected a string at question\[0\], found "\[{40}…"$/);
  });

  it("a million-deep array in args.me (streamed) is one located line", async () => {
    // Two levels open on line 1: the first too deep is the 999th bracket of line 2.
    const f = write("args.json", `{"arguments": [\n${nested(MILLION)}]}`);
    const e = await rejection(collect(readArgsMe(f)));
    expect(e).toBeInstanceOf(InputError);
    expect(e.message).toMatch(new RegExp(`/args\\.json:2:${MAX_JSON_DEPTH - 1}: `));
    expect(e.message).toMatch(TOO_DEEP);
  });

  it("iKAT topics and runs, and JSONL lines, are checked too", async () => {
    for (const [name, read] of [
      ["topics.json", readIkatTopics],
      ["run.json", readIkatRun],
    ] as const) {
      const e = await rejection(read(write(name, nested(MILLION))));
      expect(e.message).toMatch(new RegExp(`/${name.replace(".", "\\.")}:1:${MAX_JSON_DEPTH + 1}: `));
    }
    const e = await rejection(
      collect(readJsonl(write("p.jsonl", `{}\n\n{"a": ${nested(MILLION)}}\n`), (v) => v)),
    );
    expect(e.message).toMatch(new RegExp(`/p\\.jsonl:3:${7 + MAX_JSON_DEPTH - 1}: `));
    expect(e.message).toMatch(TOO_DEEP);
  });

  it("reads exactly the limit, refuses one more, and skips brackets inside strings", () => {
    expect(() => checkJsonDepth("f", nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => checkJsonDepth("f", nested(MAX_JSON_DEPTH + 1))).toThrow(/^f:1:1001: /);
    const inString = `["${"[".repeat(3000)}\\"${"{".repeat(3000)}\\\\", ${nested(3)}]`;
    expect(() => checkJsonDepth("f", inString, 1, 5)).not.toThrow();
    expect(() => checkJsonDepth("f", inString, 1, 3)).toThrow(
      /^f:1:\d+: expected JSON nested at most 3 deep/,
    );
  });

  it("the byte scanner agrees with the text scan, chunked anywhere (seeded)", () => {
    const r = rng(39);
    const pieces = ["[", "]", "{", "}", '"', '\\"', "\\\\", "\n", "é", "x", ",", '"[{', "𝄞"];
    for (let t = 0; t < 300; t++) {
      const text = Array.from(
        { length: 50 + Math.floor(r() * 400) },
        () => pieces[Math.floor(r() * pieces.length)],
      ).join("");
      const max = 1 + Math.floor(r() * 6);
      const viaText = outcome(() => checkJsonDepth("f", text, 1, max));
      const bytes = Buffer.from(text);
      const scanner = new JsonDepthScanner("f", max);
      const viaBytes = outcome(() => {
        for (let i = 0; i < bytes.length; ) {
          const n = 1 + Math.floor(r() * 8);
          scanner.feed(bytes.subarray(i, i + n));
          i += n;
        }
      });
      expect(viaBytes, text).toBe(
        viaText.replace(/:(\d+):(\d+):/, (_, l, c) => `:${l}:${charCol(text, l, c)}:`),
      );
    }
  });
});

function outcome(f: () => void): string {
  try {
    f();
    return "ok";
  } catch (e) {
    return messageOf(e);
  }
}

/** The text scan's UTF-16 column as the byte scanner's character column. */
function charCol(text: string, line: string, col: string): number {
  const l = text.split("\n")[Number(line) - 1]!;
  return [...l.slice(0, Number(col))].length;
}
