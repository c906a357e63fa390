// vitest globalSetup: a folder for one run's requirement probes, so each requirement is probed once for all test processes.
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

/** One folder per vitest process (both projects share it); removed when the run ends. */
const DIR = join(tmpdir(), `convkit-probes-${process.pid}-${Math.round(performance.timeOrigin)}`);

export default function setup(project: TestProject): () => void {
  mkdirSync(DIR, { recursive: true });
  project.provide("convkitProbeDir", DIR);
  return () => rmSync(DIR, { recursive: true, force: true });
}
