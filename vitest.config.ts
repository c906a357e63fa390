// One vitest config for the monorepo: tests run against package sources via the @convkit/source condition.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { SkipSummary } from "./packages/test-helpers/src/skip-summary.js";

const conditions = ["@convkit/source"];
const include = ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "test/**/*.test.ts"];
const slow = ["**/*.slow.test.ts"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    // The run ends with what was not run and why (requires() in @convkit/test-helpers); CI also
    // writes a JSON report, from which .ci/run prints its closing "N passed, N failed" line.
    reporters: ["default", new SkipSummary(), ...(process.env.CONVKIT_TEST_REPORT ? ["json"] : [])],
    ...(process.env.CONVKIT_TEST_REPORT ? { outputFile: { json: process.env.CONVKIT_TEST_REPORT } } : {}),
    // Each requirement (../shared, Chromium, redis-server, python3's modules) is probed once a run.
    globalSetup: ["packages/test-helpers/src/global-setup.ts"],
    // Every test file's temporary folders in one folder of the run's, removed as the file ends.
    setupFiles: ["packages/test-helpers/src/temp-root.ts"],
    // At least two test files at a time, on CI's 2 cores too (vitest's default is one less than
    // the cores): most tests wait on a child process (a CLI, Python, Chromium, Redis), and one file
    // at a time left the second core idle (the suite 1,332 s with one worker, 1,127 s with two).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: "quick", include, exclude: [...slow, "**/node_modules/**"], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: { name: "slow", include: slow, exclude: ["**/node_modules/**"], testTimeout: 300_000 },
      },
    ],
  },
});
