// Issue #39, item 3: decompression bombs through every command that reads whole inputs or lines:
// one line, exit 2, peak memory under 500 MiB, no temporary folder left (the explorer's unpacking).
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { bzip2, cliBin, REPO, tempDir } from "@convkit/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";

const d = tempDir("bombs-");
const HOOK = join(d, "rss-hook.cjs");
const RSS = join(d, "rss");

/** 64 MiB of zeros, compressed: a bomb is many copies (gzip members, bzip2 streams: both decoders read on). */
let gz: Buffer;
let bz: Buffer;

beforeAll(() => {
  // Peak RSS of the CLI's own process, written as it exits (Node's own measure, any platform).
  writeFileSync(
    HOOK,
    `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(RSS)}, String(process.resourceUsage().maxRSS)));\n`,
  );
  const zeros = Buffer.alloc(64 << 20);
  gz = gzipSync(zeros);
  bz = bzip2(zeros);
});

/** `copies` × 64 MiB of zeros after `head`, gzip or bzip2. */
function bomb(name: string, kind: "gz" | "bz2", copies: number, head?: Buffer): string {
  const f = join(d, name);
  const unit = kind === "gz" ? gz : bz;
  const first = head ? [kind === "gz" ? gzipSync(head) : bzip2(head)] : [];
  writeFileSync(f, Buffer.concat([...first, ...Array.from({ length: copies }, () => unit)]));
  return f;
}

/** A .pkl.tar.gz whose one member is `copies` × 64 MiB of zeros (a ustar header saying so). */
function tarBomb(name: string, copies: number): string {
  const h = Buffer.alloc(512);
  h.write("dict.pkl", 0);
  h.write("0000644\0", 100);
  h.write(`${(copies * 2 ** 26).toString(8).padStart(11, "0")}\0`, 124);
  h.write("00000000000\0", 136);
  h.fill(0x20, 148, 156);
  h[156] = 0x30;
  h.write("ustar\0", 257);
  h.write("00", 263);
  let sum = 0;
  for (const x of h) sum += x;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return bomb(name, "gz", copies, h);
}

/** Runs `convkit-<app>`; its exit code, stderr and peak RSS in MiB. */
function run(app: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, ["--require", HOOK, cliBin(app), ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    maxBuffer: 1 << 26,
    timeout: 120_000,
  });
  const rssMiB = Number(readFileSync(RSS, "utf8")) / 1024;
  return { code: r.status, stderr: r.stderr.toString(), rssMiB };
}

/**
 * What a run left in its temp folder, Node's own module compile cache aside: convkit's bin enables
 * it (Node 22 and later), and Node keeps it in the temp folder on purpose, for the next run.
 */
function convkitTemps(tmp: string): string[] {
  return readdirSync(tmp).filter((name) => name !== "node-compile-cache");
}

const WHOLE =
  /: expected at most 268,435,456 bytes to hold whole, after decompression \(raise with --max-input-bytes\), found more \([\d,]+ bytes read\)\n$/;
const LINE =
  /: expected a line of at most 67,108,864 bytes \(raise with --max-line-bytes\), found a longer one\n$/;

function expectRefused(r: ReturnType<typeof run>, message: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.split("\n")).toHaveLength(2); // one line
  expect(r.stderr).toMatch(message);
  expect(r.rssMiB).toBeLessThan(500);
}

describe("decompression bombs (10 GiB of zeros): one line, exit 2, under 500 MiB", () => {
  const qrels = join(d, "ok.qrel");
  beforeAll(() => writeFileSync(qrels, "1 0 d1 1\n1 0 d2 0\n"));

  it("trec-eval: a gzip bomb as the run, a bzip2 bomb as the qrels", () => {
    expectRefused(run("trec-eval", [qrels, bomb("run.gz", "gz", 160)]), LINE);
    expectRefused(run("trec-eval", [bomb("qrels.bz2", "bz2", 160), qrels]), WHOLE);
  });

  it("convert --format qulac-json and clariq-eval --run_file: bzip2 bombs", () => {
    const f = bomb("x.bz2", "bz2", 160);
    writeFileSync(
      join(d, "dev.tsv"),
      "topic_id\tinitial_request\ttopic_desc\tclarification_need\tfacet_id\tfacet_desc\tquestion_id\tquestion\tanswer\n" +
        "101\tr\td\t2\tF0010\td\tQ00697\tq?\ta\n",
    );
    expectRefused(run("convert", ["--format", "qulac-json", f, "-o", join(d, "q.jsonl")]), WHOLE);
    expectRefused(
      run("clariq-eval", ["--eval_task", "question_relevance", "--data_dir", d, "--run_file", f]),
      WHOLE,
    );
  });

  it("segment run: a bzip2 bomb of one line", () => {
    expectRefused(run("segment", ["run", bomb("docs.jsonl.bz2", "bz2", 160), "-o", join(d, "seg")]), LINE);
  });

  it("explore --eval-dict: a pkl.tar.gz whose member unpacks to 6 GiB stops at the cap; its temp folder goes", () => {
    const f = tarBomb("bomb.pkl.tar.gz", 96);
    const tmp = tempDir("bombs-tmp-");
    const r = run("explore", ["--eval-dict", f, "--port", "0"], { TMPDIR: tmp });
    expectRefused(r, WHOLE);
    expect(r.stderr).toContain("bomb.pkl.tar.gz!dict.pkl: expected");
    expect(convkitTemps(tmp)).toEqual([]);
  });

  it("explore: SIGTERM while a dict is unpacked (the cap raised) exits 143 and leaves no temp folder", async () => {
    const f = tarBomb("slow.pkl.tar.gz", 16);
    const tmp = tempDir("bombs-sig-");
    const child = spawn(
      process.execPath,
      [cliBin("explore"), "--eval-dict", f, "--port", "0", "--max-input-bytes", String(2 ** 31)],
      { cwd: REPO, env: { ...process.env, TMPDIR: tmp }, stdio: "ignore" },
    );
    const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    // Polled until the unpacking is well under way (64 MiB written).
    const unpacked = () => {
      const [dir] = convkitTemps(tmp);
      if (dir === undefined) return 0;
      return readdirSync(join(tmp, dir)).reduce((n, x) => n + statSync(join(tmp, dir, x)).size, 0);
    };
    while (unpacked() < 64 << 20) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    expect(convkitTemps(tmp)).toEqual([]);
  }, 60_000);
});

describe("one long line", () => {
  it("trec-eval on a one-line run: 4x the line takes at most 5x the time (it was quadratic: 25/100 MB, 2.3/30.9 s)", () => {
    const qrels = join(d, "one.qrel");
    writeFileSync(qrels, "1 0 d1 1\n");
    const time = (mb: number) => {
      const f = join(d, `line-${mb}.run`);
      // Not a run line: read again by the plain reader (readLineBatches), which said so after
      // joining the line once per chunk read.
      writeFileSync(f, `${"x".repeat(mb << 20)}\n`);
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const r = run("trec-eval", [qrels, f]);
        runs.push(performance.now() - t0);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/line-\d+\.run:1: expected 6 /);
      }
      return runs.sort((a, b) => a - b)[1]!;
    };
    const small = time(15);
    const large = time(60);
    expect(large / small).toBeLessThan(5);
  }, 120_000);
});
