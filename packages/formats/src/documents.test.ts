import { InputError } from "@convkit/io";
import { describe, expect, it } from "vitest";
import { jsonDocument } from "./documents.js";

describe("jsonDocument", () => {
  it("reads a ClueWeb22 record and a generic document", () => {
    expect(jsonDocument("d.jsonl", { "ClueWeb22-ID": "c1", "Clean-Text": "T\nbody", URL: "u" }, 1)).toEqual({
      id: "c1",
      text: "T\nbody",
      url: "u",
      title: "T",
    });
    expect(jsonDocument("d.jsonl", { docid: "d1", id: null, contents: "x", title: 3 }, 1)).toEqual({
      id: "d1",
      text: "x",
      url: undefined,
      title: undefined,
    });
  });

  const expected = "expected a JSON object with id and text (or contents) strings, or a ClueWeb22 record";
  it.each([
    [{ id: 5, text: "x" }, '{"id":5,"text":"x"}'],
    [{ id: "a", text: ["x"] }, '{"id":"a","text":["x"]}'],
    [null, "null"],
    [[1], "[1]"],
    ["s", '"s"'],
    [7, "7"],
  ])("%j is one InputError naming the file and line", (v, found) => {
    expect(() => jsonDocument("d.jsonl", v, 3)).toThrow(InputError);
    expect(() => jsonDocument("d.jsonl", v, 3)).toThrow(`d.jsonl:3: ${expected}, found ${found}`);
  });
});
