// One vitest config for the monorepo: tests run against package sources via the @convkit/source condition.
import { defineConfig } from "vitest/config";

const conditions = ["@convkit/source"];
const include = ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "test/**/*.test.ts"];
const slow = ["**/*.slow.test.ts"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    // CI also writes a JSON report; .ci/run prints its closing "N passed, N failed" line.
    ...(process.env.CONVKIT_TEST_REPORT
      ? { reporters: ["default", "json"], outputFile: { json: process.env.CONVKIT_TEST_REPORT } }
      : {}),
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
