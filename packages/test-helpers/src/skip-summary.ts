// The run's closing count of tests not run: one line per missing requirement and file (from requires()'s task meta), then the total.
import { relative } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";

/**
 * The vitest task meta key prefix a missing requirement leaves on its tests (requires()):
 * `{ "convkit-needs:chromium": "needs chromium (apt-get install chromium)" }`, one key per
 * requirement, so a test's own requirements add to its describe block's.
 */
export const MISSING_KEY = "convkit-needs:";

/** Under CI (CI set, and not "false" or "0") nothing may be skipped: a missing requirement fails its tests. */
export const IN_CI = !!process.env.CI && process.env.CI !== "false" && process.env.CI !== "0";

/** "1 test", "2 tests". */
const tests = (n: number) => `${n} test${n === 1 ? "" : "s"}`;

/**
 * A vitest reporter (beside "default"): at the end of the run it prints, for every file whose tests
 * a missing requirement skipped, `skipped N tests in FILE: needs X (how to get it)`, then
 * `not run: N tests (…)`. Under CI those tests fail instead, and it prints `failed N tests in …`.
 */
export class SkipSummary implements Reporter {
  private ctx: Vitest | undefined;

  onInit(ctx: Vitest): void {
    this.ctx = ctx;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const root = this.ctx?.config.root ?? process.cwd();
    const lines = new Map<string, number>();
    let missing = 0;
    let otherSkips = 0;
    for (const mod of testModules)
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") continue;
        const needs = Object.entries(test.meta() as Record<string, unknown>)
          .filter(([k]) => k.startsWith(MISSING_KEY))
          .map(([, line]) => String(line));
        // Under CI such a test fails (or, its describe block's first hook failing, is not run).
        if (needs.length > 0) {
          missing++;
          for (const n of needs) {
            const key = `${relative(root, mod.moduleId)}\t${n}`;
            lines.set(key, (lines.get(key) ?? 0) + 1);
          }
        } else if (state === "skipped") otherSkips++;
      }
    const verb = IN_CI ? "failed" : "skipped";
    const out = [...lines]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, n]) => {
        const [file, need] = key.split("\t");
        return `${verb} ${tests(n)} in ${file}: ${need}`;
      });
    const why = `${missing} for a missing requirement, ${otherSkips} skipped or todo in the test files`;
    out.push(
      IN_CI && missing > 0
        ? `not run: ${tests(missing + otherSkips)} (${why}); CI is set, so each missing requirement above fails the run`
        : `not run: ${tests(missing + otherSkips)} (${why})`,
    );
    const log = this.ctx?.logger;
    for (const l of out) log ? log.log(l) : process.stdout.write(`${l}\n`);
  }
}
