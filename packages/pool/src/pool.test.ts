import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { openTaskPool } from "./pool.js";

// A worker that allocates fast with survivors (what makes V8 grow a young generation to its
// largest), then reports its heap's young generation (new_space) size.
const WORKER = `import v8 from "node:v8";
export default function () {
  const kept = new Array(20000);
  for (let i = 0; i < 2000000; i++) kept[i % kept.length] = { i, s: "x" + i, a: [i, i] };
  const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  return { size: young.space_size, kept: kept.length };
}
`;

describe("openTaskPool", () => {
  const d = tempDir();
  const worker = pathToFileURL(join(d, "young.mjs"));
  writeFileSync(worker, WORKER);

  it("maxYoungGenerationSizeMb caps each worker's young generation; without it V8 grows it past the cap", async () => {
    const sizes: Record<string, number> = {};
    for (const [name, cap] of [
      ["capped", 8],
      ["default", undefined],
    ] as const) {
      const pool = await openTaskPool<undefined, { size: number }>({
        worker,
        threads: 1,
        ...(cap === undefined ? {} : { maxYoungGenerationSizeMb: cap }),
      });
      try {
        sizes[name] = (await pool.run(undefined)).size;
      } finally {
        await pool.destroy();
      }
    }
    expect(sizes.capped!).toBeLessThanOrEqual(8 << 20);
    expect(sizes.default!).toBeGreaterThan(8 << 20);
  });
});
