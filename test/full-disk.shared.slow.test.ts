// Writes that tell the truth (issue 39, items 1 and 8): a full disk, /dev/full as stdout, a folder where the output goes, a read-only folder: one line, exit 1, nothing left behind.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import {
  type CliResult,
  cliBin,
  REPO,
  requires,
  runCli,
  runCliToFd,
  SHARED,
  type SmallDisk,
  smallDisk,
  tempDir,
} from "@convkit/test-helpers";
import { afterEach, describe, expect, it } from "vitest";

const clariq = (f: string) => join(SHARED, "data", "clariq", f);

/** Every file and folder under `dir` (relative): what a failed write left behind. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) =>
    relative(dir, join(e.parentPath, e.name)),
  );
}

/** Exit 1 and exactly one stderr line matching `line`, no stack trace. */
function expectOneLine(r: CliResult, line: RegExp): void {
  expect(r.stderr, r.stderr).toMatch(/^[^\n]*\n$/);
  expect(r.stderr).toMatch(line);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.code, r.stderr).toBe(1);
}

/** A JSONL of {id, text} of about `bytes` (ordinary sentences), written in a normal temp folder. */
function textsJsonl(bytes: number): string {
  const file = join(tempDir(), "texts.jsonl");
  const sentence = "The garden needs water in the summer. Is the store open on Sunday? It is. ";
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const l = `${JSON.stringify({ id: `d${i}`, text: sentence.repeat(20) })}\n`;
    lines.push(l);
    size += l.length;
  }
  writeFileSync(file, lines.join(""));
  return file;
}

requires("shared", "tmpfs").describe("a full disk (a 2 MB tmpfs): one line, exit 1, no temp file", () => {
  let disk: SmallDisk | undefined;
  const small = (opts?: { full?: boolean; readOnly?: boolean }) => {
    disk = smallDisk(2 << 20, opts);
    return disk.dir;
  };
  afterEach(() => {
    disk?.unmount();
    disk = undefined;
  });

  it("convert -o (the lead's reproduction: was exit 0, nothing said, a 2 MB .tmp left)", () => {
    const dir = small();
    const r = runCli("convert", [clariq("dev.qrel"), "-o", join(dir, "o.jsonl")]);
    expectOneLine(r, /^convkit-convert: cannot write \S+\/o\.jsonl: no space left on device$/m);
    expect(filesUnder(dir)).toEqual([]);
  });

  it("convert --gzip -o", () => {
    const dir = small({ full: true });
    const r = runCli("convert", [clariq("dev.qrel"), "--gzip", "-o", join(dir, "o.jsonl.gz")]);
    expectOneLine(r, /cannot write \S+\/o\.jsonl\.gz: no space left on device$/m);
    expect(filesUnder(dir)).toEqual(["filler"]);
  });

  it("convert --out-dir", () => {
    const dir = small();
    const r = runCli("convert", [clariq("dev.qrel"), clariq("test.qrel"), "--out-dir", join(dir, "od")]);
    expectOneLine(r, /cannot write \S+\/od\/dev\.qrel\.jsonl: no space left on device$/m);
    expect(filesUnder(dir)).toEqual([]);
  });

  it("segment run", () => {
    const input = textsJsonl(3 << 20);
    const dir = small();
    const r = runCli("segment", ["run", input, "-o", join(dir, "seg")]);
    expectOneLine(r, /^convkit-segment run: cannot write \S+: no space left on device$/m);
    // Not even the output folder it made (it was left behind, empty).
    expect(filesUnder(dir)).toEqual([]);
  });

  it("segment run --format parquet (pages go to the sink one at a time)", () => {
    // Texts that differ (a passage table of one repeated text is a few bytes of dictionary).
    const input = join(tempDir(), "varied.jsonl");
    const docs = Array.from({ length: 4000 }, (_, i) =>
      JSON.stringify({ id: `d${i}`, text: `Document ${i} says ${(i * 7919) % 104729} things. `.repeat(30) }),
    );
    writeFileSync(input, `${docs.join("\n")}\n`);
    const dir = small();
    const r = runCli("segment", [
      "run",
      input,
      "--format",
      "parquet",
      "--compression",
      "none",
      "-o",
      join(dir, "seg"),
    ]);
    expectOneLine(r, /^convkit-segment run: cannot write \S+\.parquet: no space left on device$/m);
    expect(filesUnder(dir)).toEqual([]);
  });

  it("convert --to parquet -o into a folder it makes", () => {
    const dir = small({ full: true });
    const r = runCli("convert", [
      clariq("train.tsv"),
      "--to",
      "parquet",
      "-o",
      join(dir, "new", "train.parquet"),
    ]);
    expectOneLine(r, /cannot write \S+\/new\/train\.parquet: no space left on device$/m);
    expect(filesUnder(dir)).toEqual(["filler"]);
  });

  it("segment sentences -o FILE", () => {
    const input = textsJsonl(3 << 20);
    const dir = small();
    const r = runCli("segment", ["sentences", input, "--splitter", "heuristic", "-o", join(dir, "s.jsonl")]);
    expectOneLine(r, /^convkit-segment sentences: cannot write \S+\/s\.jsonl: no space left on device$/m);
    expect(filesUnder(dir)).toEqual([]);
  });

  it("gen-synthetic (real ClariQ files)", () => {
    const dir = small();
    const r = runCli("gen-synthetic", [
      "--data",
      join(SHARED, "data", "clariq"),
      "--qulac",
      join(SHARED, "data", "qulac", "qulac.json"),
      "--splits",
      "dev",
      "--out",
      join(dir, "syn"),
    ]);
    expectOneLine(r, /^convkit-gen-synthetic: cannot write \S+: no space left on device$/m);
    expect(filesUnder(dir)).toEqual([]);
  });

  it("clariq-eval --out_file", () => {
    const dir = small({ full: true });
    const r = runCli("clariq-eval", [
      "--eval_task",
      "question_relevance",
      "--data_dir",
      join(SHARED, "data", "clariq"),
      "--run_file",
      clariq("sample_runs/dev_bm25"),
      "--out_file",
      join(dir, "perf.json"),
    ]);
    expectOneLine(r, /^convkit-clariq-eval: cannot write \S+\/perf\.json: no space left on device$/m);
    expect(filesUnder(dir)).toEqual(["filler"]);
  });

  it("trec-eval -q > FILE on the full disk (was exit 0 with part of the output)", () => {
    const dir = small({ full: true });
    const fd = openSync(join(dir, "x"), "w");
    try {
      const r = runCliToFd("trec-eval", ["-q", clariq("dev.qrel"), runFor("dev.qrel")], fd);
      expectOneLine(r, /^convkit-trec-eval: cannot write stdout: no space left on device$/m);
    } finally {
      closeSync(fd);
    }
  });

  // A disk with a few pages free: the first write(2) of stdout is short (it stores what fits) and
  // Node's stdout to a file ignored that: exit 0, the output cut at a page boundary, nothing said.
  const stdoutCases: [string, string, string[]][] = [
    ["ikat flatten", "ikat", ["flatten", join(SHARED, "data", "ikat", "2025_test_topics.json")]],
    [
      "ikat convert --year 2024",
      "ikat",
      ["convert", "--year", "2024", join(SHARED, "data", "ikat", "run_validation", "2024_sample_run.json")],
    ],
    ["convert", "convert", [join(SHARED, "golden", "ikat25", "000", "run.jsonl.gz")]],
  ];
  for (const [name, app, args] of stdoutCases) {
    it(`${name} > FILE on a nearly full disk (was exit 0 with the first pages of the output)`, () => {
      const dir = small();
      writeFileSync(join(dir, "filler"), Buffer.alloc((2 << 20) - (64 << 10), 120));
      const fd = openSync(join(dir, "out"), "w");
      try {
        const r = runCliToFd(app, args, fd);
        expectOneLine(r, /^convkit-[a-z]+( [a-z]+)?: cannot write stdout: no space left on device$/m);
      } finally {
        closeSync(fd);
      }
    });
  }

  it("a read-only folder (remounted ro): one line naming it, not 'ENOENT mkdir'", () => {
    const dir = small({ readOnly: true });
    for (const out of [join(dir, "o.jsonl"), join(dir, "sub", "deeper", "o.jsonl")]) {
      const r = runCli("convert", [clariq("dev.qrel"), "-o", out]);
      expectOneLine(r, /^convkit-convert: cannot write \S+: read-only file system$/m);
    }
    const r = runCli("segment", ["run", textsJsonl(1000), "-o", join(dir, "seg")]);
    expectOneLine(r, /^convkit-segment run: cannot write \S+\/seg: read-only file system$/m);
  });
});

/** A TREC run over dev.qrel's topics (its judged documents, scored): trec-eval -q prints ~150 KB for it. */
function runFor(qrels: string): string {
  const file = join(tempDir(), "run");
  const lines = readFileSync(clariq(qrels), "utf8").trim().split("\n");
  writeFileSync(
    file,
    lines
      .map((l, i) => {
        const [qid, , docno] = l.split(/\s+/);
        return `${qid} Q0 ${docno} ${i + 1} ${1000 - (i % 997)} t\n`;
      })
      .join(""),
  );
  return file;
}

requires("shared").describe(
  "a failing stdout (/dev/full): one line, exit 1 (a closed pipe stays quiet)",
  () => {
    const devFull = () => openSync("/dev/full", "w");
    const cases: [string, string[]][] = [
      ["trec-eval -q", ["-q", clariq("dev.qrel"), "RUN"]],
      ["convert -o -", [clariq("dev.qrel"), "-o", "-"]],
      ["segment sentences", ["sentences", "TEXTS", "--splitter", "heuristic"]],
      ["convert --help", ["--help"]],
      ["segment --help (the subcommand list)", ["--help"]],
    ];
    for (const [name, args] of cases) {
      it(name, () => {
        const app = name.split(" ")[0]!;
        const argv = args.map((a) =>
          a === "RUN" ? runFor("dev.qrel") : a === "TEXTS" ? textsJsonl(1 << 20) : a,
        );
        const fd = devFull();
        try {
          const r = runCliToFd(app, argv, fd);
          expectOneLine(r, /^convkit-[a-z-]+( [a-z]+)?: cannot write stdout: no space left on device$/m);
        } finally {
          closeSync(fd);
        }
      });
    }

    it("convkit --version and --help (the dispatcher's own text)", () => {
      const bin = join(REPO, "apps", "convkit", "bin", "convkit.js");
      for (const flag of ["--version", "--help"]) {
        const fd = devFull();
        try {
          const r = spawnSync(process.execPath, [bin, flag], { cwd: REPO, stdio: ["ignore", fd, "pipe"] });
          expect(r.status).toBe(1);
          expect(r.stderr.toString()).toBe("convkit: cannot write stdout: no space left on device\n");
        } finally {
          closeSync(fd);
        }
      }
    });

    it("| head -1 is still quiet, exit 0", () => {
      const r = spawnSync("sh", [
        "-c",
        `"${process.execPath}" "${cliBin("convert")}" "${clariq("dev.qrel")}" | head -1`,
      ]);
      expect(r.stdout.toString().split("\n").length).toBe(2);
      expect(r.stderr.toString()).toBe("");
    });
  },
);

describe("output paths checked before any work", () => {
  it("the output is a folder: one line, before reading the input (a FIFO nobody writes)", async () => {
    const dir = tempDir();
    const fifo = join(dir, "in.fifo");
    execFileSync("mkfifo", [fifo]);
    mkdirSync(join(dir, "taken"));
    // Had the input been opened first, this would wait on the FIFO forever.
    const child = spawn(
      process.execPath,
      [cliBin("convert"), fifo, "--format", "qrels", "-o", join(dir, "taken")],
      {
        cwd: REPO,
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    // Killed if it waits on the FIFO (the bug), so that the test fails instead of hanging.
    const guard = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const code = await new Promise<number | null>((r) => child.on("close", r));
    clearTimeout(guard);
    expectOneLine(
      { code: code ?? -1, stdout: "", stderr },
      /^convkit-convert: cannot write \S+\/taken: is a directory$/m,
    );
  });

  it("convert --out-dir where a file is: one line", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "file"), "");
    const r = runCli("convert", [
      join(REPO, "data", "clariq", "sample.qrel"),
      "--out-dir",
      join(dir, "file"),
    ]);
    expectOneLine(r, /^convkit-convert: cannot write \S+\/file: \S+ is not a directory$/m);
  });

  it("stale temp files of the output (their process gone) are removed by the next write", () => {
    const dir = tempDir();
    const gone = spawnSync(process.execPath, [
      "-e",
      "process.stdout.write(String(process.pid))",
    ]).stdout.toString();
    const stale = join(dir, `.o.jsonl.${gone}.abc123.tmp`);
    const staleDir = join(dir, `.o.jsonl.${gone}.def456.tmp`);
    const other = join(dir, `.other.jsonl.${gone}.abc123.tmp`);
    writeFileSync(stale, "half");
    mkdirSync(staleDir);
    writeFileSync(join(staleDir, "o.pkl"), "half");
    writeFileSync(other, "half");
    const r = runCli("convert", [join(REPO, "data", "clariq", "sample.qrel"), "-o", join(dir, "o.jsonl")]);
    expect(r.code, r.stderr).toBe(0);
    expect(filesUnder(dir).sort()).toEqual([`.other.jsonl.${gone}.abc123.tmp`, "o.jsonl"].sort());
  });
});
