// Small disks for tests of full-disk and read-only failures: a real tmpfs of a few pages (mounting needs root: requires("tmpfs")).
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmdirSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A mounted tmpfs: its folder, and how to unmount it (call it in a finally or afterEach). */
export interface SmallDisk {
  readonly dir: string;
  unmount(): void;
}

/**
 * Mounts a tmpfs of `bytes` (rounded up to pages) on a fresh temp folder. `readOnly` mounts it
 * read-only (chmod 555 does not stop root; a read-only file system does); `full` fills it up
 * first, so that the next byte written fails with ENOSPC.
 */
export function smallDisk(bytes: number, options: { readOnly?: boolean; full?: boolean } = {}): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), "convkit-disk-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", dir]);
  if (options.full) fillUp(join(dir, "filler"));
  if (options.readOnly) execFileSync("mount", ["-o", "remount,ro", dir]);
  return {
    dir,
    unmount() {
      execFileSync("umount", ["-l", dir]);
      rmdirSync(dir);
    },
  };
}

/** Writes `file` until the disk is full (ENOSPC), leaving no byte free. */
function fillUp(file: string): void {
  const fd = openSync(file, "w");
  const block = Buffer.alloc(4096, 120);
  try {
    for (;;) writeSync(fd, block);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
  }
  // The last, partial block: a page may hold fewer bytes than a whole block.
  try {
    for (;;) writeSync(fd, block, 0, 1);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
  } finally {
    closeSync(fd);
  }
}

/** Whether this process can mount a tmpfs (root, and a kernel and container that allow it). */
export function canMountTmpfs(): boolean {
  try {
    smallDisk(4096).unmount();
    return true;
  } catch {
    return false;
  }
}
