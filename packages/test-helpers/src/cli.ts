// Running the built convkit-* CLIs as a user would (`pnpm build` first; `pnpm test` does it).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO } from "./shared.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The Node the CLIs run on: this test's own, or another supported one inside {@link withCliNode}. */
let cliNode = process.execPath;

/** Runs `fn` with the CLIs (runCli, runCliAsync, runCliToFd) on the Node binary `node`. */
export async function withCliNode<T>(node: string, fn: () => Promise<T>): Promise<T> {
  const before = cliNode;
  cliNode = node;
  try {
    return await fn();
  } finally {
    cliNode = before;
  }
}

/** The built `convkit-<app>` alias (apps/convkit/bin), as a user's PATH would run it. */
export function cliBin(app: string): string {
  return join(REPO, "apps", "convkit", "bin", `convkit-${app}.js`);
}

/** Runs `convkit-<app>` with args (and optional stdin) and waits for it. */
export function runCli(app: string, args: string[], input?: string | Buffer): CliResult {
  const bin = cliBin(app);
  const r = spawnSync(cliNode, [bin, ...args], { input, cwd: REPO, maxBuffer: 1 << 28 });
  return { code: r.status ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/** Runs `convkit-<app>` with its stdout on file descriptor `fd` (a file, /dev/full); stdout is "" then. */
export function runCliToFd(app: string, args: string[], fd: number): CliResult {
  const r = spawnSync(cliNode, [cliBin(app), ...args], {
    cwd: REPO,
    stdio: ["ignore", fd, "pipe"],
    maxBuffer: 1 << 28,
  });
  return { code: r.status ?? -1, stdout: "", stderr: r.stderr.toString() };
}

/** Same, without blocking the event loop (tests that serve HTTP in-process, or run CLIs side by side). */
export async function runCliAsync(app: string, args: string[], input?: string | Buffer): Promise<CliResult> {
  const { spawn } = await import("node:child_process");
  const bin = cliBin(app);
  const child = spawn(cliNode, [bin, ...args], { cwd: REPO });
  child.stdin.on("error", () => {}); // a CLI that fails early may close stdin before it is all written
  child.stdin.end(input);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const code = await new Promise<number>((r) => child.on("close", (c) => r(c ?? -1)));
  return { code, stdout, stderr };
}
