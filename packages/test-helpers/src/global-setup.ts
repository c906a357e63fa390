// vitest globalSetup: one temp folder per run, holding the requirement probes (each probed once for all test processes) and every test file's temporary folders (temp-root.ts).
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

const PREFIX = "convkit-tests-";

/** Whether a process of this id runs (a signal 0 is only a check). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the folders of earlier runs whose vitest process is gone: a run that was killed (or a
 * machine that was) never ran its teardown, and a CI machine that keeps its /tmp filled up with
 * them once (the suite writes gigabytes of temporary outputs per run).
 */
function sweepDeadRuns(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (pid > 0 && !alive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

/**
 * The run's folder. vitest loads this module once per project (quick, slow) and for the root
 * config, in one process: the name is the same for each (pid and start time), so all share it.
 */
const ROOT = join(tmpdir(), `${PREFIX}${process.pid}-${Math.round(performance.timeOrigin)}`);

export default function setup(project: TestProject): () => void {
  if (!existsSync(ROOT)) sweepDeadRuns();
  mkdirSync(join(ROOT, "probes"), { recursive: true });
  project.provide("convkitProbeDir", join(ROOT, "probes"));
  project.provide("convkitTempRoot", ROOT);
  return () => rmSync(ROOT, { recursive: true, force: true });
}
