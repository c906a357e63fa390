import { describe, expect, it } from "vitest";
import { decodeQulacId, encodeQulacId } from "./ids.js";

describe("Qulac string ids", () => {
  it("decodes 0, 1 or 2 history ids and encodes back to the same string", () => {
    for (const s of ["20-2-1-0", "25-1-3-8-1", "18-2-1-2-10-1"])
      expect(encodeQulacId(decodeQulacId(s))).toBe(s);
    expect(decodeQulacId("18-2-1-2-10-1")).toEqual({
      topic: 18,
      facet: 2,
      history: [1, 2],
      question: 10,
      flag: 1,
    });
    expect(decodeQulacId("20-2-1-0")).toEqual({ topic: 20, facet: 2, history: [], question: 1, flag: 0 });
  });

  it("rejects anything else with a clear error", () => {
    for (const bad of ["20-2-1", "1-2-3-4-5-6-7", "20-2-x-0", "", "20--1-0"]) {
      expect(() => decodeQulacId(bad)).toThrow(
        `qulac id: expected topic-facet[-h1][-h2]-question-flag (4 to 6 integers), found ${JSON.stringify(bad)}`,
      );
    }
  });
});
