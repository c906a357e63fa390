// generate_run.py's `{score:.6f}` and its per-line errors. Expected values printed by CPython
// 3.11.7 (format(json.loads(src), ".6f"), and generate_run.py run on the lines below).
import { pyJsonLoads } from "@convkit/formats";
import { describe, expect, it } from "vitest";
import { convertRun2025, pyFormat6f } from "./convert-2025.js";

describe("2025 convert as generate_run.py", () => {
  it("formats scores as Python's format(score, '.6f')", () => {
    const table: [string, string][] = [
      ["0.5", "0.500000"],
      ["1.0000005", "1.000001"],
      ["2.0000005", "2.000001"],
      ["1e-07", "0.000000"],
      ["123456.7890125", "123456.789012"],
      ["-0.0", "-0.000000"],
      ["NaN", "nan"],
      ["Infinity", "inf"],
      ["1e+21", "1000000000000000000000.000000"],
      [
        "1.5e+300",
        "1500000000000000078757140382806630373056702871662238732373781173267703686983362293679557062620671796065556665749325817265413784853040645863467188277180060474272580801389863705606745350692182135089053429852456199917621678558451461320111979114170213741868888183230085264257173504208294580298189100810240.000000",
      ],
      ["1152921504606846976", "1152921504606846976.000000"],
      ["10000000000000000000000", "10000000000000000000000.000000"],
      ["true", "1.000000"],
      ["3", "3.000000"],
      ["0.30000000000000004", "0.300000"],
    ];
    for (const [src, want] of table) expect(pyFormat6f(pyJsonLoads(src)), src).toBe(want);
  });

  it("skips the lines it cannot use with Python's messages, keeping lines written before an error", () => {
    const run = [
      '{"turn_id": "1-1_1", "metadata": {"run_id": "r"}, "references": {"a": 1, "b": NaN, "c": 2}}',
      "",
      '{"turn_id": "1-1_2", "references": ["a"]}',
      '{"turn_id": "1-1_3", "metadata": {"run_id": "r"}, "references": {"a": 1.5, "b": -1' +
        "0".repeat(400) +
        "}}",
      '{"turn_id": 7, "metadata": null}',
      '{"turn_id": "1-1_4", "references": {"a": "x", "b": 1}}',
      '{"turn_id": "1-1_5", "references": {"a": "x"}}',
      "[1]",
      '{"turn_id": "1-1_6",',
    ].join("\r\n");
    const r = convertRun2025("run.jsonl", Buffer.from(run));
    // generate_run.py's trec.run and stderr on this file (Python 3.11.7).
    expect(r.trec.toString("utf8")).toBe(
      "1-1_1\tQ0\ta\t1\t1.000000\tr\n1-1_1\tQ0\tb\t2\tnan\tr\n1-1_1\tQ0\tc\t3\t2.000000\tr\n1-1_3\tQ0\ta\t1\t1.500000\tr\n",
    );
    expect(r.errors.map((e) => e.message)).toEqual([
      "[Line 3] Error: references field must be a dictionary",
      "[Line 4] Error: int too large to convert to float",
      "[Line 5] Error: 'NoneType' object has no attribute 'get'",
      "[Line 6] Error: '<' not supported between instances of 'str' and 'int'",
      "[Line 7] Error: Unknown format code 'f' for object of type 'str'",
      "[Line 8] Error: 'list' object has no attribute 'get'",
      "[Line 9] Error: Expecting property name enclosed in double quotes: line 1 column 21 (char 20)",
    ]);
  });
});
