// parseJsonExact: the numbers of a JSON line exactly as written, on both sides of the Parquet/JSONL comparison (the Python readers themselves: parquet-python.slow.test.ts).
import { describe, expect, it } from "vitest";
import { parseJsonExact } from "./parquet-python.js";

describe("parseJsonExact", () => {
  it("keeps ints past 2^53 and integral doubles past it exact, leaves strings alone", () => {
    expect(parseJsonExact("[9007199254740993, 9007199254740992]")).toEqual([
      { $int: "9007199254740993" },
      { $int: "9007199254740992" },
    ]);
    // The same double as Python's repr and as JavaScript writes it.
    expect(parseJsonExact("[1e+16]")).toEqual(parseJsonExact("[10000000000000000]"));
    expect(parseJsonExact('{"a":"9007199254740993 NaN 1e+16","b":[0.1,1.5e-7,-3]}')).toEqual({
      a: "9007199254740993 NaN 1e+16",
      b: [0.1, 1.5e-7, -3],
    });
    expect(parseJsonExact("[NaN,-Infinity]")).toEqual([{ $float: "NaN" }, { $float: "-Infinity" }]);
  });
});
