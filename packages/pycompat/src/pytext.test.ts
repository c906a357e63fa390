import { python, requires } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { formatPyFloat, pythonJsonString } from "./pytext.js";

const floats = [
  0,
  -0,
  1,
  5,
  0.1,
  1 / 3,
  2 / 3,
  1e-4,
  9.999e-5,
  1e-5,
  1.5e-7,
  1e15,
  1e16,
  1.2345e16,
  123456789.125,
  0.30000000000000004,
  1e300,
  -2.5e-300,
  0.16468750000000001,
  5e-324,
];
const strings = [
  "plain",
  'q"uote',
  "back\\slash",
  "ctl\u0000\u001f\u007f",
  "tab\tnl\n cr\r",
  "é ü ✓",
  "emoji 😀 𝄞",
  "\u2028\u2029",
  "/slash/",
];

describe("Python text forms", () => {
  it("formats floats as repr() does (known vectors)", () => {
    expect(floats.slice(0, 10).map(formatPyFloat)).toEqual([
      "0.0",
      "-0.0",
      "1.0",
      "5.0",
      "0.1",
      "0.3333333333333333",
      "0.6666666666666666",
      "0.0001",
      "9.999e-05",
      "1e-05",
    ]);
    expect([Number.NaN, Infinity, -Infinity].map(formatPyFloat)).toEqual(["nan", "inf", "-inf"]);
  });

  requires("python3").it("matches python3 repr(float) and json.dumps(str) exactly", () => {
    const out = JSON.parse(
      python(
        "import sys,json\nfl,st=json.load(sys.stdin)\nprint(json.dumps([[repr(float(x)) for x in fl],[json.dumps(s) for s in st]]))",
        JSON.stringify([floats.map((x) => (Object.is(x, -0) ? "-0.0" : formatPyFloat(x))), strings]),
      ),
    );
    expect(floats.map(formatPyFloat)).toEqual(out[0]);
    expect(strings.map((s) => pythonJsonString(s))).toEqual(out[1]);
  });
});
