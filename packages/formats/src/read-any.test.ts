import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "@convkit/io";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { readAny } from "./read-any.js";

describe("readAny", () => {
  it.each([
    ["ikat-topics", '[{"number": "1-1", "turns": ['],
    ["qulac-json", '{"topic_id": {"0": 1'],
    ["ikat-run", '{"run_name": "x", "turns": [{'],
  ] as const)(
    "%s: bad input surfaces when the batches are read, never as an unhandled rejection",
    async (format, text) => {
      const file = join(tempDir(), "bad.json");
      writeFileSync(file, text);
      const unhandled: unknown[] = [];
      const onUnhandled = (e: unknown) => unhandled.push(e);
      process.on("unhandledRejection", onUnhandled);
      try {
        const { batches } = await readAny(file, format);
        // The caller opens its output first; the read must not have failed on its own meanwhile.
        await new Promise((r) => setTimeout(r, 200));
        expect(unhandled).toEqual([]);
        await expect(async () => {
          for await (const _ of batches);
        }).rejects.toThrow(InputError);
      } finally {
        process.off("unhandledRejection", onUnhandled);
      }
    },
  );
});
