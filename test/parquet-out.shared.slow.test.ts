// Parquet outputs on the real data and when things go wrong: gen-synthetic's real sets equal their
// JSONL (any --threads); a full disk and SIGTERM mid-write leave no file (issue 41).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SYNTHETIC_RECORD_SCHEMA } from "@convkit/formats";
import {
  cliBin,
  evalFixtureArgs,
  REPO,
  requires,
  runCli,
  SHARED,
  type SmallDisk,
  smallDisk,
  tempDir,
  writeEvalFixture,
} from "@convkit/test-helpers";
import { afterEach, expect, it } from "vitest";
import { expectParquetRows, jsonlRows } from "./parquet-cases/check.js";

const clariqArgs = () => [
  ...["--data", join(SHARED, "data", "clariq")],
  ...["--qulac", join(SHARED, "data", "qulac", "qulac.json")],
];

/** Every file under `dir` (relative), folders left out: what a failed write left behind. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** A JSONL of {id, text} documents, about `bytes`. */
function textsJsonl(bytes: number): string {
  const file = join(tempDir(), "texts.jsonl");
  const sentence = "The garden needs water in the summer. Is the store open on Sunday? It is. ";
  let s = "";
  for (let i = 0; s.length < bytes; i++)
    s += `${JSON.stringify({ id: `d${i}`, text: sentence.repeat(20) })}\n`;
  writeFileSync(file, s);
  return file;
}

requires("shared").describe("gen-synthetic --format parquet on the real ClariQ files", () => {
  it("dev and train: the same bytes for 1 and 2 threads, dev's rows those of its JSONL", async () => {
    const a = tempDir();
    const b = tempDir();
    const r1 = runCli("gen-synthetic", [...clariqArgs(), "--format", "parquet", "--out", a]);
    const r2 = runCli("gen-synthetic", [
      ...clariqArgs(),
      "--format",
      "jsonl,parquet",
      "--threads",
      "2",
      "--out",
      b,
    ]);
    expect([r1.code, r2.code], r1.stderr + r2.stderr).toEqual([0, 0]);
    for (const split of ["dev", "train"])
      expect(
        readFileSync(join(a, `${split}_synthetic.parquet`)).equals(
          readFileSync(join(b, `${split}_synthetic.parquet`)),
        ),
      ).toBe(true);
    await expectParquetRows(
      join(a, "dev_synthetic.parquet"),
      SYNTHETIC_RECORD_SCHEMA,
      jsonlRows(join(b, "dev_synthetic.jsonl")),
    );
  });
});

requires("shared", "tmpfs").describe("Parquet on a full disk: one line, exit 1, no file left", () => {
  let disk: SmallDisk | undefined;
  const full = () => {
    disk = smallDisk(1 << 20, { full: true });
    return disk.dir;
  };
  afterEach(() => {
    disk?.unmount();
    disk = undefined;
  });
  const expectOneLine = (r: { code: number; stderr: string }, app: string) => {
    expect(r.stderr, r.stderr).toMatch(new RegExp(`^${app}: cannot write \\S+: no space left on device\\n$`));
    expect(r.code).toBe(1);
  };

  it("gen-synthetic --format parquet", () => {
    const dir = full();
    const r = runCli("gen-synthetic", [
      ...clariqArgs(),
      "--splits",
      "dev",
      "--format",
      "parquet",
      "--out",
      join(dir, "syn"),
    ]);
    expectOneLine(r, "convkit-gen-synthetic");
    expect(filesUnder(dir)).toEqual(["filler"]);
  });

  it("segment run --format parquet", () => {
    const input = textsJsonl(1 << 20);
    const dir = full();
    const r = runCli("segment", ["run", input, "--format", "parquet", "-o", join(dir, "seg")]);
    expectOneLine(r, "convkit-segment run");
    expect(filesUnder(dir)).toEqual(["filler"]);
  });

  it("gen-eval --format parquet", () => {
    const data = tempDir();
    writeEvalFixture(data);
    const dir = full();
    const r = runCli("gen-eval", [...evalFixtureArgs(data), "--format", "parquet", "-o", join(dir, "eval")]);
    expectOneLine(r, "convkit-gen-eval");
    expect(filesUnder(dir)).toEqual(["filler"]);
  });
});

function start(app: string, args: string[]): ChildProcess {
  return spawn(process.execPath, [cliBin(app), ...args], { cwd: REPO, stdio: "ignore" });
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

/** SIGTERM, and the signal the child ended by (SIGKILLed after 10 s if it ignores it: the test fails). */
async function term(child: ChildProcess): Promise<string | null> {
  const ended = new Promise<string | null>((r) => child.on("exit", (_c, s) => r(s)));
  child.kill("SIGTERM");
  const guard = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const by = await ended;
  clearTimeout(guard);
  return by;
}

/** Whether a JSONL temp file under `dir` holds bytes. */
const jsonlTmpGrown = (dir: string) =>
  filesUnder(dir).some((f) => /\.jsonl\.\d+\.\w+\.tmp$/.test(f) && statSync(join(dir, f)).size > 0);

/** Whether a Parquet temp file under `dir` holds bytes (a row group was written). */
const parquetTmpGrown = (dir: string) =>
  filesUnder(dir).some((f) => /\.parquet\.\d+\.\w+\.tmp$/.test(f) && statSync(join(dir, f)).size > 0);

requires("shared").describe("SIGTERM mid-write of a Parquet file: ended by the signal, nothing left", () => {
  it("gen-synthetic --format parquet (train)", async () => {
    const out = tempDir();
    const child = start("gen-synthetic", [
      ...clariqArgs(),
      "--splits",
      "train",
      "--format",
      "parquet",
      "--out",
      out,
    ]);
    await until(child, () => parquetTmpGrown(out));
    expect(await term(child)).toBe("SIGTERM");
    expect(filesUnder(out)).toEqual([]);
  });

  it("segment run --format jsonl,parquet --threads 2", async () => {
    const input = textsJsonl(40 << 20);
    const out = join(tempDir(), "seg");
    const child = start("segment", ["run", input, "--format", "jsonl,parquet", "--threads", "2", "-o", out]);
    // Passages flowing (the JSONL's temp holds some) while the Parquet file is open: its first row
    // group (16 MB of passages) takes minutes of spaCy on a loaded machine, so it is not awaited.
    await until(
      child,
      () => jsonlTmpGrown(out) && filesUnder(out).some((f) => /\.parquet\.\d+\.\w+\.tmp$/.test(f)),
    );
    expect(await term(child)).toBe("SIGTERM");
    expect(filesUnder(out)).toEqual([]);
  });
});
