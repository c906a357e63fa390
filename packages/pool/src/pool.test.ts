import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { openTaskPool } from "./pool.js";

// A worker that reports the resource limits its thread was started with: what openTaskPool set,
// whatever V8's own defaults on this Node are.
const WORKER = `import { resourceLimits } from "node:worker_threads";
export default function () {
  return resourceLimits;
}
`;

describe("openTaskPool", () => {
  const d = tempDir();
  const worker = pathToFileURL(join(d, "limits.mjs"));
  writeFileSync(worker, WORKER);

  const limitsOf = async (o: { maxYoungGenerationSizeMb?: number; maxOldGenerationSizeMb?: number }) => {
    const pool = await openTaskPool<undefined, Record<string, number>>({ worker, threads: 1, ...o });
    try {
      return await pool.run(undefined);
    } finally {
      await pool.destroy();
    }
  };

  it("starts its workers with the heap limits asked for", async () => {
    const limits = await limitsOf({ maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 96 });
    expect(limits).toMatchObject({ maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 96 });
  });

  it("sets no limit that was not asked for (V8's default stays)", async () => {
    const asked = await limitsOf({ maxYoungGenerationSizeMb: 8 });
    const none = await limitsOf({});
    expect(asked.maxYoungGenerationSizeMb).toBe(8);
    expect(asked.maxOldGenerationSizeMb).toBe(none.maxOldGenerationSizeMb);
  });
});
