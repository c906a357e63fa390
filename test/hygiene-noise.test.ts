// Noise (issue #43): non-null assertions (`x!`) in non-test source stay at most NON_NULL_BUDGET,
// counted by biome's own rule (style/noNonNullAssertion), so the count is the parser's, not a regex's.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

/**
 * A ratchet: the count when issue #43 closed (445; 1,280 before it, by this same count, and the
 * issue's bar was 550; 439 since the Parquet writer's chunk builder). Lower it when you remove
 * some; never raise it.
 */
const NON_NULL_BUDGET = 439;
const TEST_FILE = /(\.test\.ts|\/test-helpers\/.*)$/;

/** Non-null assertions per file of packages/*\/src, packages/*\/web and apps/*\/src, tests left out. */
function nonNullAssertions(): Map<string, number> {
  const biome = join(REPO, "node_modules", ".bin", "biome");
  const r = spawnSync(
    existsSync(biome) ? biome : "biome",
    [
      "lint",
      "--only=style/noNonNullAssertion",
      "--max-diagnostics=100000",
      "--reporter=github",
      "--diagnostic-level=info",
      "packages",
      "apps",
    ],
    { cwd: REPO, encoding: "utf8", maxBuffer: 1 << 28 },
  );
  const perFile = new Map<string, number>();
  for (const m of r.stdout.matchAll(/noNonNullAssertion,file=([^,]+),/g)) {
    const file = relative(REPO, m[1] ?? "");
    if (TEST_FILE.test(file) || !/^(packages|apps)\/[^/]+\/(src|web)\//.test(file)) continue;
    perFile.set(file, (perFile.get(file) ?? 0) + 1);
  }
  return perFile;
}

describe("noise", () => {
  it(`non-null assertions in non-test source: at most ${NON_NULL_BUDGET}`, () => {
    const perFile = nonNullAssertions();
    const total = [...perFile.values()].reduce((a, b) => a + b, 0);
    const worst = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 5);
    // The counter itself must see them: a file known to hold some keeps this test honest.
    expect(total, "biome found no non-null assertion at all: is the counter broken?").toBeGreaterThan(0);
    expect(total, `most in: ${worst.map(([f, n]) => `${f} ${n}`).join(", ")}`).toBeLessThanOrEqual(
      NON_NULL_BUDGET,
    );
  }, 60_000);
});
