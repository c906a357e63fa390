// Issue #39, item 4: a text longer than V8's string limit was "expected valid UTF-8, found byte
// 0x61" (the failed decode taken for bad bytes); it is reported as the limit it is.
import { describe, expect, it } from "vitest";
import { MAX_STRING_LENGTH } from "./limits.js";
import { decodeUtf8 } from "./lines.js";

describe("V8's string limit", () => {
  it("a valid text of more characters than a string holds is one line saying so (537 MB of 'a')", () => {
    const big = Buffer.alloc(MAX_STRING_LENGTH + 16, 0x61);
    expect(() => decodeUtf8("big.json", big)).toThrow(
      `big.json: expected a text of at most ${MAX_STRING_LENGTH.toLocaleString("en-US")} characters (V8's string limit: JavaScript cannot hold a longer string), found ${(MAX_STRING_LENGTH + 16).toLocaleString("en-US")} characters`,
    );
  });
});
