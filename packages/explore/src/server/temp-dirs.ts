// The explorer's temporary folders (unpacked dicts, links for the ClariQ scorer), removable at any moment.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const live = new Set<string>();
let exitHook = false;

/** A new temporary folder, removed by {@link removeTempDir} or {@link removeExplorerTempDirs}. */
export function makeTempDir(prefix: string): string {
  // Whatever way the process ends (an error, process.exit from a signal handler, the end of the
  // event loop), what is left is removed as it exits.
  if (!exitHook) process.once("exit", removeExplorerTempDirs);
  exitHook = true;
  const d = mkdtempSync(join(tmpdir(), prefix));
  live.add(d);
  return d;
}

export function removeTempDir(d: string | undefined): void {
  if (d === undefined) return;
  rmSync(d, { recursive: true, force: true });
  live.delete(d);
}

/**
 * Removes every temporary folder the explorer made and has not removed yet: what a signal handler
 * calls, even in the middle of opening the inputs.
 */
export function removeExplorerTempDirs(): void {
  for (const d of [...live]) removeTempDir(d);
}
