import { describe, expect, it } from "vitest";
import { Fields, isJsonObject, type Mismatch } from "./fields.js";

const mismatch: Mismatch = (path, expected, found) => new Error(`${path}: ${expected}, found ${found}`);

describe("Fields", () => {
  it("shows a found value by describeValue, or by a reader's own describe in nested objects and lists", () => {
    const v = { a: { b: [1] }, c: [{ d: [2] }] };
    expect(() => Fields.of(v, mismatch).object("a").string("b")).toThrow("a.b: a string, found an array");
    const json = (x: unknown) => JSON.stringify(x);
    expect(() => Fields.of(v, mismatch, "", json).object("a").string("b")).toThrow(
      "a.b: a string, found [1]",
    );
    const [c] = Fields.of(v, mismatch, "", json).objects("c");
    expect(() => c?.strings("d")).toThrow("c[0].d[0]: a string, found 2");
    expect(() => Fields.of([3], mismatch, "", json)).toThrow(": an object, found [3]");
  });

  it("isJsonObject: an object, not null nor an array", () => {
    expect([{}, null, [], "s", 1].map(isJsonObject)).toEqual([true, false, false, false, false]);
  });
});
