import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "@convkit/io";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it, vi } from "vitest";
import * as ikat from "./ikat.js";
import * as qulac from "./qulac.js";
import { readAny } from "./read-any.js";

// The whole-file readers, spied on: whether one has started is seen directly, not by waiting.
vi.mock(import("./ikat.js"), async (original) => {
  const m = await original();
  return { ...m, readIkatTopics: vi.fn(m.readIkatTopics), readIkatRunTurns: vi.fn(m.readIkatRunTurns) };
});
vi.mock(import("./qulac.js"), async (original) => {
  const m = await original();
  return { ...m, readQulacJson: vi.fn(m.readQulacJson) };
});

const readers = {
  "ikat-topics": () => ikat.readIkatTopics,
  "qulac-json": () => qulac.readQulacJson,
  "ikat-run": () => ikat.readIkatRunTurns,
} as const;

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
      const reader = vi.mocked(readers[format]());
      reader.mockClear();
      try {
        const { batches } = await readAny(file, format);
        // The caller opens its output first; the read must not have started on its own meanwhile
        // (a read nobody awaits rejects unhandled): no read has begun until the batches are read.
        expect(reader).not.toHaveBeenCalled();
        await expect(async () => {
          for await (const _ of batches);
        }).rejects.toThrow(InputError);
        expect(reader).toHaveBeenCalledTimes(1);
        expect(unhandled).toEqual([]);
      } finally {
        process.off("unhandledRejection", onUnhandled);
      }
    },
  );
});
