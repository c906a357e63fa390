import { describe, expect, it } from "vitest";
import { openTaskPool } from "./pool.js";

describe("openTaskPool", () => {
  it("gives each worker the heap limits asked for, and V8's own where none are", async () => {
    const worker = new URL("./testdata/limits-worker.mjs", import.meta.url);
    const capped = await openTaskPool<
      null,
      { maxYoungGenerationSizeMb: number; maxOldGenerationSizeMb: number }
    >({
      worker,
      threads: 1,
      maxYoungGenerationSizeMb: 4,
      maxOldGenerationSizeMb: 256,
    });
    const plain = await openTaskPool<null, { maxYoungGenerationSizeMb: number }>({ worker, threads: 1 });
    try {
      const limits = await capped.run(null);
      expect(limits.maxYoungGenerationSizeMb).toBe(4);
      expect(limits.maxOldGenerationSizeMb).toBe(256);
      expect((await plain.run(null)).maxYoungGenerationSizeMb).toBeGreaterThan(4);
    } finally {
      await capped.destroy();
      await plain.destroy();
    }
  });
});
