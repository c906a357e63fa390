import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REPO, tempDir } from "./shared.js";

describe("the test run's temporary folders", () => {
  test("a file's folders (its own and its child processes') are gone when it ends; a killed run's are swept by the next run", () => {
    const outer = tempDir("temp-root-outer-"); // the TMPDIR the inner vitest starts with
    const work = tempDir("temp-root-work-");
    // pid 999999999 is above any pid_max: that run is dead. This process's pid is alive: kept.
    const deadRun = join(outer, "convkit-tests-999999999-killed");
    const liveRun = join(outer, `convkit-tests-${process.pid}-running`);
    for (const d of [deadRun, liveRun]) {
      mkdirSync(join(d, "file-x"), { recursive: true });
      writeFileSync(join(d, "file-x", "data"), "x");
    }
    const config = join(work, "vitest.config.mjs");
    const src = "packages/test-helpers/src";
    writeFileSync(
      config,
      `export default { test: { include: ["${src}/temp-root.fixture.mjs", "${src}/temp-root-again.fixture.mjs"], fileParallelism: false, globalSetup: ["${src}/global-setup.ts"], setupFiles: ["${src}/temp-root.ts"], reporters: ["dot"] } };\n`,
    );
    const report = join(work, "report.json");
    const r = spawnSync(
      process.execPath,
      [join(REPO, "node_modules/vitest/vitest.mjs"), "run", "--config", config, "--root", REPO],
      { cwd: REPO, env: { ...process.env, TMPDIR: outer, CONVKIT_FIXTURE_REPORT: report }, encoding: "utf8" },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const files = readFileSync(report, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { own: string; child: string; others: string[] });
    expect(files).toHaveLength(2);
    for (const made of files) {
      // The second file sees no folder of the first: each file's are removed as it ends.
      expect(made.others).toEqual([]);
      for (const d of [made.own, made.child]) {
        expect(d.startsWith(join(outer, "convkit-tests-"))).toBe(true);
        expect(existsSync(d)).toBe(false);
      }
    }
    expect(readdirSync(outer)).toEqual([`convkit-tests-${process.pid}-running`]);
  });
});
