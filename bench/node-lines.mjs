// Node lines the bench runs convkit on besides the one running it: local binaries from the
// registry's `node` package (as .ci/run installs them for the tests), kept under bench/.work.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The Node line in Active LTS (Node 20, the oldest convkit supports, reached its end of life on 2026-04-30). */
export const LTS_LINE = 24;

/** The major line of the Node running this. */
export const ownLine = () => Number(process.versions.node.split(".")[0]);

/**
 * A Node binary of line `major` and its version: this process's own when it is of that line, else
 * the registry's, installed under `work` on first use; undefined when npm could not install it.
 */
export function nodeOfLine(major, work) {
  if (ownLine() === major) return { bin: process.execPath, version: process.version };
  const prefix = join(work, `node${major}`);
  const bin = join(prefix, "node_modules", "node", "bin", "node");
  if (!existsSync(bin)) {
    const args = ["install", "--no-save", "--no-fund", "--no-audit", "--prefix", prefix, `node@${major}`];
    const r = spawnSync("npm", args, { stdio: ["ignore", 2, 2] });
    if (r.status !== 0 || !existsSync(bin)) return undefined;
  }
  const version = spawnSync(bin, ["--version"]).stdout?.toString().trim();
  return version ? { bin, version } : undefined;
}
