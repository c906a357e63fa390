// Document files read for gen:eval: a JSONL line whose leading id is no JSON string is bad input at its line, not a SyntaxError.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "@convkit/io";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { loadDocumentStore } from "./inputs.js";

describe("loadDocumentStore on plain JSONL", () => {
  const docs = (lines: string[]) => {
    const p = join(tempDir(), "docs.jsonl");
    writeFileSync(p, `${lines.join("\n")}\n`);
    return p;
  };

  it("reads an id with escapes as JSON does", async () => {
    const p = docs(['{"id": "d1", "text": "one"}', '{"id": "d\\u0032", "text": "two"}']);
    const store = await loadDocumentStore([p], new Set(["d1", "d2"]));
    expect(await store.texts(["d2", "d1"])).toEqual(["two", "one"]);
  });

  it("a bad escape or a raw tab in the leading id: one InputError at its line and column (was a SyntaxError, exit 1)", async () => {
    for (const bad of ['{"id": "a\\qb", "text": "x"}', '{"id": "a\tb", "text": "x"}']) {
      const p = docs(['{"id": "d1", "text": "one"}', bad]);
      const e = await loadDocumentStore([p], new Set(["d1"])).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).message).toMatch(/docs\.jsonl:2:\d+: expected valid JSON, found "/);
    }
  });
});
