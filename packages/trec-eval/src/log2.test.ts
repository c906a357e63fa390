// log2Int's fast path (V8's Math.log2 but for a table of exceptions) against its exact reference.
import { describe, expect, it } from "vitest";
import { FAST_MAX, log2Int } from "./log2.js";
import { log2IntReference } from "./log2.reference.js";

describe("log2Int", () => {
  it("equals log2IntReference for every integer 1..FAST_MAX and past it", () => {
    const bad: number[] = [];
    for (let n = 1; n <= FAST_MAX + 1000; n++) if (log2Int(n) !== log2IntReference(n)) bad.push(n);
    expect(bad).toEqual([]);
  });
});
