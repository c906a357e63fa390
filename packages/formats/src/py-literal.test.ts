import { describe, expect, it } from "vitest";
import { PyLiteralError, parsePyLiteral } from "./py-literal.js";

// Expected values as Python 3.11's ast.literal_eval gives them (checked by hand against it).
describe("Python literals in strings", () => {
  it.each([
    ["'Hi there!'", "Hi there!"],
    ['"it\\\'s"', "it's"],
    ["'a\\tb\\n'", "a\tb\n"],
    ["'\\x41\\u00e9\\U0001F600'", "Aé😀"],
    ["'\\101\\7'", "A\x07"],
    ["r'\\n\\''", "\\n\\'"],
    ["'a' \"b\"", "ab"],
    ["'''x'y\"z'''", "x'y\"z"],
    ["'\\q'", "\\q"],
    ["u'ü'", "ü"],
    ["'caf\\xe9'", "café"],
    ["'a\\\nb'", "ab"],
    ["['clueweb22-en0001-02-03456:1', 'b']", ["clueweb22-en0001-02-03456:1", "b"]],
    ["[]", []],
    ["['a',]", ["a"]],
    ["('a', 'b')", ["a", "b"]],
    ["('a')", "a"],
    ["[1, -2, 'x']", [1, -2, "x"]],
    ["[\n 'a',\n 'b'\n]", ["a", "b"]],
    ["  'padded'  ", "padded"],
  ] as const)("%j", (text, value) => {
    expect(parsePyLiteral(text)).toEqual(value);
  });

  // Python refuses these too (SyntaxError or ValueError), or they are kinds a topic never holds.
  it.each([
    "'unterminated",
    "['a' 'b'",
    "[a]",
    "'x' + 'y'",
    "'\\x4'",
    "['a'] x",
    "'a\nb'",
    "b'x'",
    "1.5",
    "'\\N{BULLET}'",
    "",
  ])("refuses %j", (text) => {
    expect(() => parsePyLiteral(text)).toThrow(PyLiteralError);
  });

  it("deep nesting is refused, not a stack overflow", () => {
    expect(() => parsePyLiteral("[".repeat(100_000))).toThrow(PyLiteralError);
  });
});
