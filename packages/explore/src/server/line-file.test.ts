// The explorer's line index (issue #39, item 3): a line that spans reads is joined once (linear in
// its length) and no longer than the line cap.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_INPUT_LIMITS, setInputLimits } from "@convkit/io";
import { bytesConcatenated, tempDir } from "@convkit/test-helpers";
import { afterEach, describe, expect, it } from "vitest";
import { LineFile } from "./line-file.js";

const d = tempDir("line-file-");

afterEach(() => setInputLimits(DEFAULT_INPUT_LIMITS));

describe("LineFile.index", () => {
  it("a line that spans reads is joined once: 4x the line copies 4x the bytes (joined per read: ~16x)", async () => {
    // Counted, not timed: a 6 MiB line indexes in ~4 ms, under the noise of a busy CI machine.
    const copiedFor = async (mb: number) => {
      const f = join(d, `long-${mb}.jsonl`);
      writeFileSync(f, `{"a": 1}\n"${"x".repeat(mb << 20)}"\n{"b": 2}\n`);
      let longest = 0;
      let lf: LineFile | undefined;
      const joined = await bytesConcatenated(async () => {
        lf = await LineFile.index(f, (line) => {
          longest = Math.max(longest, line.length);
        });
      });
      expect(lf?.count).toBe(3);
      expect(longest).toBe((mb << 20) + 2);
      expect(await lf?.json(2)).toEqual({ b: 2 });
      return joined;
    };
    expect(await copiedFor(6)).toBe((6 << 20) + 2);
    expect(await copiedFor(24)).toBe((24 << 20) + 2);
  }, 60_000);

  it("a line past the cap is one InputError at its first byte", async () => {
    const f = join(d, "capped.jsonl");
    writeFileSync(f, `{"a": 1}\n"${"x".repeat(3 << 20)}"\n`);
    setInputLimits({ lineBytes: 1 << 20 });
    await expect(LineFile.index(f)).rejects.toThrow(
      `${f}:byte 9: expected a line of at most 1,048,576 bytes (raise with --max-line-bytes), found a longer one`,
    );
  });
});
