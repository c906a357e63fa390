// validate_trec_ikat25.py reproduced, on a run made for its quirks: a turn_id only in metadata, NaN
// scores, responses over 250 NFKC tokens split by U+3000, 1,002 references (trimmed by the validator
// into a list its own check refuses), a repeated key, bad JSON, a BOM, CRLF. The expected stdout and
// the sha256 of its .fixed file and of generate_run.py's output were printed by the official scripts
// (Python 3.11.7) on this very run and topics.
import { createHash } from "node:crypto";
import { pyJsonLoads } from "@convkit/formats";
import { describe, expect, it } from "vitest";
import { convertRun2025 } from "./convert-2025.js";
import { topicTurnIds2025, validateRun2025 } from "./validate-2025.js";

function buildRun(): string {
  const md = '{"team_id": "t", "run_id": "r", "run_type": "automatic"}';
  const ref = (i: number) =>
    `clueweb22-en${String(i % 10000).padStart(4, "0")}-01-${String(i).padStart(5, "0")}:${i % 7}`;
  const refs = (n: number, f: (i: number) => number | string) =>
    `{${Array.from({ length: n }, (_, i) => `"${ref(i)}": ${f(i)}`).join(", ")}}`;
  const resp = (text: string, cits: string) =>
    `{"text": ${JSON.stringify(text)}, "citations": ${cits}, "ptkb_provenance": [1]}`;
  const long = Array.from({ length: 130 }, (_, i) => `w${i}`).join("\u3000");
  return `${[
    `{"metadata": ${md}, "turn_id": "1-1_1", "references": ${refs(3, (i) => 3 - i)}, "responses": [${resp("ok", `{"${ref(0)}": 1}`)}]}`,
    `{"metadata": {"team_id": "t", "run_id": "r", "run_type": "automatic", "turn_id": "1-1_2"}, "references": {}, "responses": []}`,
    `{"metadata": ${md}, "turn_id": "1-2_1", "references": ${refs(70, (i) => (i % 5 === 0 ? "NaN" : (i % 9) / 2))}, "responses": [${resp("a b", "{}")}, ${resp(long, "{}")}, ${resp(long, "{}")}]}`,
    "",
    `{"metadata": ${md}, "turn_id": "1-2_2", "references": ${refs(1002, (i) => 1 / (i + 1))}, "responses": [${resp("x", `{"${ref(1)}": 0.5, "${ref(1001)}": 1e-05}`)}]}`,
    `{"metadata": {"team_id": "t", "run_id": "r"}, "turn_id": "1-2_2", "turn_id": "9-9_9", "references": {"bad id": 1, "${ref(5)}": 2}, "responses": [${resp("\u00e9\u00a8", "[]")}]}`,
    `{"metadata": ${md}, "turn_id": "1-1_1", "references": {"a": 1,}}`,
    "\ufeff{}",
  ].join("\r\n")}\r\n`;
}

const TOPICS =
  '[{"number": "1-1", "responses": [{"turn_id": 1}, {"turn_id": 2}]}, {"number": "1-2", "responses": [{"turn_id": 1}, {"turn_id": 2}]}]';
const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");

describe("validate_trec_ikat25.py reproduced", () => {
  const ids = topicTurnIds2025(pyJsonLoads(TOPICS));
  const r = validateRun2025(Buffer.from(buildRun()), ids, "run.jsonl");

  it("prints what the official script prints and exits as it does", () => {
    expect(r.stdout).toEqual([
      "Loaded 4 unique turn IDs from topics.",
      "[Fix-3] response_length=262 > 250. Trimming responses...",
      "[Fix-5] references length=1002 > 1000. Trimming...",
      "[Fix-5] WARNING: references trimmed from 1002 to 1000",
      "[Fix-5] WARNING: responses[0].citations: dropped 1 citation(s) not found in trimmed references",
      "[Line 5] ❌ ERRORS:",
      "Error: references must be a dict, with segment IDs as keys and scores as values: 'list' object has no attribute 'items'",
      "Error: responses[0].citations must be a dict, with segment IDs as keys and scores as values: 'list' object has no attribute 'items'",
      "[Line 6] ❌ ERRORS:",
      "Error: metadata missing keys: {'run_type'}",
      "Error: responses[0].citations must be a dict, with segment IDs as keys and scores as values: 'list' object has no attribute 'items'",
      "[Line 6] WARNING: field 'run_type' is missing from metadata",
      "[Line 6] WARNING: reference[1] not in CLUEWEB_PATTERN format: bad id",
      "[Line 7] ❌ JSON decode error: Expecting property name enclosed in double quotes: line 1 column 114 (char 113)",
      "[Line 8] ❌ JSON decode error: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)",
      "[File] ❌ ERROR:",
      "Error: Missing turn_id: 1-1_2",
      "Error: Total missing turn_ids: 1",
      "[File] ❌ ERROR:",
      "Error: Additional turn_id not in topics: 9-9_9",
      "Error: Total additional turn_ids: 1",
      "",
      "Fixes were applied. Writing output to: run.jsonl.fixed",
      "",
      "Validation completed: 6 line(s) with errors.",
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.crash).toBeUndefined();
  });

  it("writes the official .fixed bytes", () => {
    expect(sha256(r.fixed as Uint8Array)).toBe(
      "733ca55f396702f1a3383ffb5a41805c690c0abcb5ead77e4c5f256924309993",
    );
  });

  it("gives findings by line, file-level ones without, and convkit's notes apart", () => {
    const errorLines = [
      ...new Set(r.findings.filter((f) => f.level === "error" && f.line).map((f) => f.line)),
    ];
    expect(errorLines).toEqual([5, 6, 7, 8]);
    expect(r.findings.filter((f) => f.line === undefined).map((f) => f.message)).toEqual([
      "Missing turn_id: 1-1_2",
      "Additional turn_id not in topics: 9-9_9",
    ]);
    const notes = r.findings
      .filter((f) => f.message.startsWith("convkit: "))
      .map((f) => [f.line, f.message.slice(0, 40)]);
    expect(notes).toEqual([
      [2, "convkit: turn_id is read from the top le"],
      [3, "convkit: NaN or Infinity scores are not "],
      [5, "convkit: the validator itself trimmed th"],
    ]);
  });

  it("converts as generate_run.py", () => {
    const c = convertRun2025("run.jsonl", Buffer.from(buildRun()));
    expect(sha256(c.trec)).toBe("aa3b4c814325a2c5620426291dcf8000063baa44a2c8611685f39cf8deb00cf4");
    expect(c.errors.map((e) => e.message)).toEqual([
      "[Line 7] Error: Expecting property name enclosed in double quotes: line 1 column 114 (char 113)",
      "[Line 8] Error: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)",
    ]);
  });
});

describe("where validate_trec_ikat25.py stops with a traceback (exit 1, stdout so far, no .fixed)", () => {
  // Each run one line; the exception is the last stderr line of the official script (Python 3.11.7).
  const md = '{"team_id": "t", "run_id": "r", "run_type": "automatic"}';
  const table: [string, string][] = [
    [
      `{"turn_id": "1-1_1", "x": ${"[".repeat(994)}${"]".repeat(994)}}`,
      "RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string",
    ],
    [
      `{"turn_id": "1-1_1", "references": {"a": ${"7".repeat(4301)}}}`,
      "ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit",
    ],
    [
      `{"metadata": ${md}, "turn_id": "1-1_1", "references": {"clueweb22-en0001-01-00001:1\\udc00": 1.0}, "responses": []}`,
      "UnicodeEncodeError: 'utf-8' codec can't encode character '\\udc00' in position 89: surrogates not allowed",
    ],
    [
      `{"metadata": ${md}, "turn_id": "1-1_1", "references": {}, "responses": [{"text": "a", "ptkb_provenance": []}]}`,
      "KeyError: 'citations'",
    ],
  ];
  it("stops on the same line with the same exception", () => {
    const ids = topicTurnIds2025(pyJsonLoads(TOPICS));
    for (const [line, error] of table) {
      const r = validateRun2025(Buffer.from(`${line}\n`), ids, "e.jsonl");
      expect(r.crash, error).toEqual({ line: 1, error });
      expect(r.exitCode).toBe(1);
      expect(r.fixed).toBeNull();
      expect(r.stdout).toEqual(["Loaded 4 unique turn IDs from topics."]);
    }
  });
});
