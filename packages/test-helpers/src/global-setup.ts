// vitest globalSetup: one temp folder per run, holding the requirement probes (each probed once for all test processes) and every test file's temporary folders (temp-root.ts).
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
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

let root: string | undefined;

export default function setup(project: TestProject): () => void {
  // Both projects (quick, slow) call this in one vitest process: one root for the run.
  if (root === undefined) {
    sweepDeadRuns();
    root = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
    mkdirSync(join(root, "probes"));
  }
  const runRoot = root;
  project.provide("convkitProbeDir", join(runRoot, "probes"));
  project.provide("convkitTempRoot", runRoot);
  return () => rmSync(runRoot, { recursive: true, force: true });
}
