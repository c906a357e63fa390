// Signals (issue 39, item 5): SIGTERM / SIGINT mid-work end a command within a second, by the signal (exit 143 / 130 in a shell), its temp and spool files removed; a SIGKILLed run's leftovers are swept by the next.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { cliBin, REPO, requires, runCli, SHARED, tempDir, writeEvalFixture } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

/** Every file under `dir` (relative), folders left out. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

function start(app: string, args: string[]): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [cliBin(app), ...args], {
    cwd: REPO,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d) => {
    err += d;
  });
  return { child, stderr: () => err };
}

/** Polls `ready` (a condition, not a duration) until it holds; fails if the child ends first or after 60 s. */
async function until(child: ChildProcess, ready: () => boolean): Promise<void> {
  const t0 = Date.now();
  while (!ready()) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error("the command ended before the signal");
    if (Date.now() - t0 > 60_000) throw new Error("the command never reached the point to signal it at");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends `sig` and measures how long the child takes to end; resolves its signal and the milliseconds. */
async function signal(child: ChildProcess, sig: NodeJS.Signals): Promise<{ by: string | null; ms: number }> {
  const ended = new Promise<string | null>((r) => child.on("exit", (_code, s) => r(s)));
  const t0 = performance.now();
  child.kill(sig);
  // A command that ignores the signal (the bug) is killed after 10 s, so that the test fails
  // instead of leaving a process behind.
  const guard = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const by = await ended;
  clearTimeout(guard);
  return { by, ms: performance.now() - t0 };
}

/** A thread of `pid` blocked opening a FIFO (the kernel's wait for the other end). */
function blockedOnFifo(pid: number): boolean {
  const tasks = `/proc/${pid}/task`;
  if (!existsSync(tasks)) return false;
  return readdirSync(tasks).some((t) => {
    try {
      return readFileSync(join(tasks, t, "wchan"), "utf8").trim() === "wait_for_partner";
    } catch {
      return false;
    }
  });
}

const clariqArgs = () => [
  "--data",
  join(SHARED, "data", "clariq"),
  "--qulac",
  join(SHARED, "data", "qulac", "qulac.json"),
];

requires("shared").describe("SIGTERM mid-work: ended within a second, nothing left behind", () => {
  it("gen-synthetic writing the train split (was: a 309 MB .tmp and a .pkl left)", async () => {
    const out = tempDir();
    const { child, stderr } = start("gen-synthetic", [...clariqArgs(), "--splits", "train", "--out", out]);
    // Mid-work: the JSONL's temp file has grown past a MiB.
    await until(child, () =>
      filesUnder(out).some((f) => f.endsWith(".tmp") && statSync(join(out, f)).size > 1 << 20),
    );
    const { by, ms } = await signal(child, "SIGTERM");
    expect(by, stderr()).toBe("SIGTERM");
    expect(ms).toBeLessThan(1000);
    expect(readdirSync(out)).toEqual([]);
  });

  it("gen-synthetic writing Parquet into a folder it made: the temp file and the folder are gone", async () => {
    const parent = tempDir();
    const out = join(parent, "new", "set");
    const { child, stderr } = start("gen-synthetic", [
      ...clariqArgs(),
      ...["--splits", "train", "--format", "parquet", "--out", out],
    ]);
    await until(child, () => filesUnder(parent).some((f) => f.includes(".parquet.") && f.endsWith(".tmp")));
    const { by, ms } = await signal(child, "SIGTERM");
    expect(by, stderr()).toBe("SIGTERM");
    expect(ms).toBeLessThan(1000);
    expect(readdirSync(parent)).toEqual([]);
  });

  it("gen-synthetic on SIGINT (Ctrl-C): exit by SIGINT, nothing left", async () => {
    const out = tempDir();
    const { child } = start("gen-synthetic", [...clariqArgs(), "--splits", "train", "--out", out]);
    await until(child, () => filesUnder(out).some((f) => f.endsWith(".tmp")));
    const { by, ms } = await signal(child, "SIGINT");
    expect(by).toBe("SIGINT");
    expect(ms).toBeLessThan(1000);
    expect(readdirSync(out)).toEqual([]);
  });

  it("a SIGKILLed gen-synthetic's temp files are removed by the next run of the same outputs", async () => {
    const out = tempDir();
    const { child } = start("gen-synthetic", [...clariqArgs(), "--splits", "train", "--out", out]);
    await until(child, () =>
      filesUnder(out).some((f) => f.endsWith(".tmp") && statSync(join(out, f)).size > 0),
    );
    await signal(child, "SIGKILL");
    expect(readdirSync(out).filter((f) => f.endsWith(".tmp")).length).toBeGreaterThan(0);
    // The same outputs again, for a few topics (quick).
    const r = runCli("gen-synthetic", [
      ...clariqArgs(),
      "--splits",
      "train",
      "--topics",
      "1,2",
      "--out",
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out).filter((f) => f.startsWith("."))).toEqual([]);
  });
});

describe("SIGTERM while waiting: gen-eval's spools, a FIFO nobody writes", () => {
  it("gen-eval with its spools open, blocked opening a FIFO (was: eleven .spool files left)", async () => {
    const data = tempDir();
    writeEvalFixture(data);
    const fifo = join(data, "texts.fifo");
    execFileSync("mkfifo", [fifo]);
    const out = tempDir();
    const { child, stderr } = start("gen-eval", [
      "--data",
      data,
      "--docs",
      join(data, "docs.run"),
      "--texts",
      fifo,
      "--qrels",
      join(data, "dev.qrel"),
      "-o",
      join(out, "ev"),
    ]);
    await until(child, () => filesUnder(out).filter((f) => f.endsWith(".spool")).length === 11);
    await until(child, () => blockedOnFifo(child.pid!));
    const { by, ms } = await signal(child, "SIGTERM");
    expect(by, stderr()).toBe("SIGTERM");
    expect(ms).toBeLessThan(1000);
    expect(readdirSync(out)).toEqual([]);
  });

  it("convert FIFO -o x: process.exit would hang on the blocked open(); the re-raised signal does not", async () => {
    const dir = tempDir();
    const fifo = join(dir, "in.fifo");
    execFileSync("mkfifo", [fifo]);
    const { child, stderr } = start("convert", [fifo, "-o", join(dir, "x.jsonl")]);
    await until(child, () => blockedOnFifo(child.pid!));
    const { by, ms } = await signal(child, "SIGTERM");
    expect(by, stderr()).toBe("SIGTERM");
    expect(ms).toBeLessThan(1000);
    expect(readdirSync(dir)).toEqual(["in.fifo"]);
  });

  it("in a shell, the status is 128 + the signal: 143", () => {
    const dir = tempDir();
    const fifo = join(dir, "in.fifo");
    execFileSync("mkfifo", [fifo]);
    // The shell starts the command, then signals it once a thread waits on the FIFO.
    const script = `"${process.execPath}" "${cliBin("convert")}" "${fifo}" -o "${join(dir, "x.jsonl")}" & p=$!
      while ! grep -qs wait_for_partner /proc/$p/task/*/wchan; do :; done
      kill -TERM $p; wait $p; echo $?`;
    expect(execFileSync("sh", ["-c", script]).toString().trim()).toBe("143");
  });
});
