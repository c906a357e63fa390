// Runs on the queue, end to end, on a real redis-server (started per test on a free loopback port,
// AOF on) and real convkit-worker processes: the outputs equal a local run's byte for byte, a
// worker killed mid-job or a Redis restart changes nothing, a run submitted twice does its work
// once, a bad input fails only its file.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  awaitRun,
  defineJobKind,
  defineRunKind,
  PROGRESS_MS,
  parseQueueUrl,
  type RunProgress,
  runQueueWorker,
  submitRun,
} from "@convkit/queue";
import {
  evalFixtureArgs,
  REPO,
  requires,
  runCliAsync,
  startRedis,
  type TestRedis,
  tempDir,
  writeEvalFixture,
} from "@convkit/test-helpers";
import { afterEach, expect, it } from "vitest";

/** Input files of JSONL {id, text}: Qulac's topic and facet texts made into documents of a few KB. */
function writeInputs(dir: string, files: number, docsPerFile: number): void {
  mkdirSync(dir, { recursive: true });
  const q = JSON.parse(readFileSync(join(REPO, "data/qulac/qulac.sample.json"), "utf8")) as Record<
    string,
    Record<string, string>
  >;
  const texts = [
    ...Object.values(q.topic_desc!),
    ...Object.values(q.facet_desc!),
    ...Object.values(q.answer!),
  ];
  for (let f = 0; f < files; f++) {
    const lines: string[] = [];
    for (let d = 0; d < docsPerFile; d++) {
      const parts: string[] = [];
      for (let k = 0; k < 40; k++) parts.push(texts[(f * 7919 + d * 31 + k) % texts.length]!.trim());
      lines.push(JSON.stringify({ id: `doc-${f}-${d}`, text: parts.join(". ") }));
    }
    writeFileSync(join(dir, `part-${String(f).padStart(2, "0")}.jsonl`), `${lines.join("\n")}\n`);
  }
}

/** Every file under a folder, relative path → SHA-256 of its bytes (deep-equal on MBs of Buffers is slow). */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) {
      const p = join(e.parentPath, e.name);
      out.set(p.slice(dir.length + 1), createHash("sha256").update(readFileSync(p)).digest("hex"));
    }
  return out;
}

/** A convkit-worker process and the lines it has logged. */
interface TestWorker {
  proc: ChildProcess;
  log: string[];
  /** Resolves when a logged line matches. */
  waitFor(re: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

const workers: TestWorker[] = [];
const servers: TestRedis[] = [];

function startWorker(url: string, extra: string[] = []): TestWorker {
  const proc = spawn(
    process.execPath,
    [join(REPO, "apps/convkit/bin/convkit-worker.js"), "--queue", url, "--stall-seconds", "2", ...extra],
    { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] },
  );
  const log: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  let buf = "";
  proc.stderr!.on("data", (d) => {
    buf += d;
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      log.push(line);
      for (const w of [...waiters])
        if (w.re.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
    }
  });
  const exited = new Promise<number | null>((r) => proc.on("exit", (c) => r(c)));
  const w: TestWorker = {
    proc,
    log,
    exited,
    waitFor: (re) => {
      const seen = log.find((l) => re.test(l));
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ re, resolve }));
    },
  };
  workers.push(w);
  return w;
}

async function redis(): Promise<TestRedis> {
  const r = await startRedis();
  servers.push(r);
  return r;
}

afterEach(async () => {
  for (const w of workers.splice(0)) {
    if (w.proc.exitCode === null) w.proc.kill("SIGKILL");
    await w.exited;
  }
  for (const s of servers.splice(0)) await s.stop();
});

const segment = (inputs: string, out: string, extra: string[] = []) =>
  runCliAsync("segment", ["run", inputs, "--format", "jsonl,hashes,trecweb", "-o", out, ...extra]);

/**
 * Inputs written to DIR/in, a local run into DIR/local (what the queue run must equal), and the
 * same run submitted to the queue with --detach (into DIR/queued), before any worker.
 */
async function localThenSubmitted(
  dir: string,
  url: string,
  files: number,
  docsPerFile: number,
): Promise<void> {
  writeInputs(join(dir, "in"), files, docsPerFile);
  const local = await segment(join(dir, "in"), join(dir, "local"));
  expect(local.code, local.stderr).toBe(0);
  const submit = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", url, "--detach"]);
  expect(submit.code, submit.stderr).toBe(0);
}

const unitsStarted = (w: TestWorker) => w.log.filter((l) => l.includes("start segment-file")).length;

requires("redis-server").describe("convkit-segment run --queue on a real Redis (slow)", () => {
  it("2 worker processes give the local run's outputs and manifest byte for byte; both take units; the run is one wait", async () => {
    const r = await redis();
    const dir = tempDir("convkit-queue-");
    writeInputs(join(dir, "in"), 8, 400);
    const local = await segment(join(dir, "in"), join(dir, "local"));
    expect(local.code, local.stderr).toBe(0);
    const a = startWorker(r.url);
    const b = startWorker(r.url);
    const q = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stderr).toMatch(
      /run segment-[0-9a-f]{16}: 8 files \(0 already done\), 3200 documents, \d+ passages/,
    );
    expect(tree(join(dir, "queued"))).toEqual(tree(join(dir, "local")));
    // Three outputs and a manifest per input: the manifests too are the local run's.
    expect(tree(join(dir, "local")).size).toBe(8 * 4);
    expect(unitsStarted(a) + unitsStarted(b)).toBe(8);
    expect(unitsStarted(a)).toBeGreaterThan(0);
    expect(unitsStarted(b)).toBeGreaterThan(0);
  });

  it("a worker killed with SIGKILL mid-unit: another takes the unit again after the stall time; outputs identical, each input once", async () => {
    const r = await redis();
    const dir = tempDir("convkit-queue-");
    await localThenSubmitted(dir, r.url, 3, 1500);
    const doomed = startWorker(r.url);
    const started = await doomed.waitFor(/start segment-file/);
    doomed.proc.kill("SIGKILL");
    await doomed.exited;
    const jobId = started.split(" ").at(-1)!;
    const survivor = startWorker(r.url);
    const q = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stderr).toContain("on the queue already: not submitted again");
    // The killed worker's unit was done by the survivor.
    expect(survivor.log).toContain(`convkit-worker: done segment-file ${jobId}`);
    expect(tree(join(dir, "queued"))).toEqual(tree(join(dir, "local")));
    // No temp file of the dead worker left behind.
    expect([...tree(join(dir, "queued")).keys()].filter((k) => k.endsWith(".tmp"))).toEqual([]);
  }, 180_000);

  it("a worker given SIGTERM mid-unit finishes that unit, takes no other and exits 0", async () => {
    const r = await redis();
    const dir = tempDir("convkit-queue-");
    await localThenSubmitted(dir, r.url, 3, 1500);
    const first = startWorker(r.url);
    const started = await first.waitFor(/start segment-file/);
    first.proc.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(first.log).toContain(`convkit-worker: done segment-file ${started.split(" ").at(-1)}`);
    expect(unitsStarted(first)).toBe(1);
    startWorker(r.url);
    const q = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    expect(q.code, q.stderr).toBe(0);
    expect(tree(join(dir, "queued"))).toEqual(tree(join(dir, "local")));
  }, 180_000);

  it("Redis restarted mid-run (AOF): the run completes with identical outputs", async () => {
    const r = await redis();
    const dir = tempDir("convkit-queue-");
    await localThenSubmitted(dir, r.url, 12, 1000);
    // Mid-run by construction, not by speed: a worker told to stop at its first unit does exactly
    // that unit (SIGTERM finishes the job in hand and takes no other), so 11 are left.
    const first = startWorker(r.url);
    await first.waitFor(/start segment-file/);
    first.proc.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(unitsStarted(first)).toBe(1);
    // The watcher is connected while Redis goes away and comes back.
    const q = segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    await r.restart();
    startWorker(r.url);
    const done = await q;
    expect(done.code, done.stderr).toBe(0);
    expect(tree(join(dir, "queued"))).toEqual(tree(join(dir, "local")));
  }, 180_000);

  it("the same run submitted twice (before any worker, and again after it ended) does each unit once", async () => {
    const r = await redis();
    const dir = tempDir("convkit-queue-");
    writeInputs(join(dir, "in"), 4, 100);
    const args = ["--queue", r.url, "--detach"];
    const [s1, s2] = await Promise.all([
      segment(join(dir, "in"), join(dir, "queued"), args),
      segment(join(dir, "in"), join(dir, "queued"), args),
    ]);
    expect([s1.code, s2.code]).toEqual([0, 0]);
    const w = startWorker(r.url);
    const q = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    expect(q.code, q.stderr).toBe(0);
    const again = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("not submitted again");
    expect(unitsStarted(w)).toBe(4);
    expect(w.log.filter((l) => l.includes("start segment-run"))).toHaveLength(1);
    // An input changed since: another run, in which only that input is redone (said on the
    // worker's stderr), the others are current; the outputs are a fresh local run's.
    const changed = join(dir, "in", "part-02.jsonl");
    writeFileSync(changed, readFileSync(changed, "utf8").replaceAll("doc-2-", "doc-x-"));
    const third = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).not.toContain("not submitted again");
    expect(third.stderr).toMatch(/: 1 files \(3 already done\), 100 documents, /);
    expect(w.log).toContain(
      `${changed}: changed since ${join(dir, "queued", "part-02")}.* was written (mtime and content), redoing`,
    );
    const local = await segment(join(dir, "in"), join(dir, "local"));
    expect(local.code, local.stderr).toBe(0);
    expect(tree(join(dir, "queued"))).toEqual(tree(join(dir, "local")));
  });

  it("a bad input file fails its unit without retries (one line, file and position); the other files complete; exit 2; an idle worker exits", async () => {
    const r = await redis();
    const dir = tempDir("convkit-queue-");
    writeInputs(join(dir, "in"), 3, 50);
    const bad = join(dir, "in", "part-01.jsonl");
    writeFileSync(
      bad,
      `${readFileSync(bad, "utf8").split("\n").slice(0, 7).join("\n")}\n{"id": "x", "text": \n`,
    );
    const submit = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url, "--detach"]);
    expect(submit.code, submit.stderr).toBe(0);
    const w = startWorker(r.url, ["--exit-when-idle"]);
    const q = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    expect(q.code).toBe(2);
    // --exit-when-idle: the worker ends by itself once the run is through.
    expect(await w.exited).toBe(0);
    expect(q.stderr).toContain(`${bad}:8:21: expected valid JSON, found end of input\n`);
    expect(JSON.parse(readFileSync(join(dir, "queued", "part-00.manifest.json"), "utf8")).docs).toBe(50);
    expect(readdirSync(join(dir, "queued")).sort()).toEqual([
      "part-00.hashes.tsv",
      "part-00.jsonl",
      "part-00.manifest.json",
      "part-00.trecweb",
      "part-02.hashes.tsv",
      "part-02.jsonl",
      "part-02.manifest.json",
      "part-02.trecweb",
    ]);
    // Tried once: bad input is not retried.
    expect(w.log.filter((l) => l.includes("failed segment-file"))).toHaveLength(1);
    const status = await runCliAsync("queue", ["status", "--queue", r.url]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/\tsegment-run\tcompleted\t3\t2\t1\t0\t0\n$/);
    // The run has ended: retry says what to do; clean, fix the file, submit again: all done.
    const runId = /^(segment-[0-9a-f]{16})\t/m.exec(status.stdout)![1]!;
    const retry = await runCliAsync("queue", ["retry", "--queue", r.url, "--run-id", runId]);
    expect(retry.code).toBe(2);
    expect(retry.stderr.split("\n")[0]).toBe(
      `run ${runId} has ended: fix what failed, then convkit-queue clean --run-id ${runId} and submit the run again (its finished units are done again, to the same bytes)`,
    );
    const clean = await runCliAsync("queue", ["clean", "--queue", r.url, "--run-id", runId]);
    expect(clean.code, clean.stderr).toBe(0);
    writeInputs(join(dir, "in"), 3, 50);
    startWorker(r.url);
    const again = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    expect(again.code, again.stderr).toBe(0);
    // The fixed file is redone (it has no manifest yet), the others are current.
    expect(again.stderr).toMatch(/: 1 files \(2 already done\), 50 documents, /);
    for (const f of ["part-00", "part-01", "part-02"])
      expect(JSON.parse(readFileSync(join(dir, "queued", `${f}.manifest.json`), "utf8")).docs).toBe(50);
  });

  it("a worker started before Redis is up waits, then connects and works; a wrong URL is one line, exit 2", async () => {
    const r = await redis();
    await r.stop();
    const w = startWorker(r.url);
    await w.waitFor(/waiting for Redis at/);
    await r.restart();
    const dir = tempDir("convkit-queue-");
    writeInputs(join(dir, "in"), 2, 20);
    const q = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    expect(q.code, q.stderr).toBe(0);
    expect(unitsStarted(w)).toBe(2);
    const bad = await segment(join(dir, "in"), join(dir, "x"), ["--queue", "redis//127.0.0.1"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      `--queue: expected redis://HOST:PORT[/DB], found "redis//127.0.0.1"\nTry 'convkit-segment run --help'.\n`,
    );
    const gone = await runCliAsync("worker", ["--queue", "redis://127.0.0.1:1/x"]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toBe(
      `--queue: expected a database number after the port, found "x"\nTry 'convkit-worker --help'.\n`,
    );
    // A database Redis does not have: one line, exit 1, nothing submitted.
    const db = await segment(join(dir, "in"), join(dir, "y"), ["--queue", `${r.url}/99`]);
    expect(db.code).toBe(1);
    expect(db.stderr).toBe(`${r.url}/99: cannot use database 99 (ERR DB index is out of range)\n`);
  }, 180_000);
});

requires("redis-server").describe("convkit-gen-eval --queue on a real Redis (slow)", () => {
  it("topics as jobs on 2 worker processes: the dicts (pickle in tar.gz, JSON) equal a local run's byte for byte", async () => {
    const r = await redis();
    const dir = tempDir("convkit-queue-eval-");
    writeEvalFixture(dir);
    const args = [...evalFixtureArgs(dir), "--format", "pickle,json"];
    const local = await runCliAsync("gen-eval", [...args, "-o", join(dir, "local", "dev_eval")]);
    expect(local.code, local.stderr).toBe(0);
    const a = startWorker(r.url);
    const b = startWorker(r.url);
    const q = await runCliAsync("gen-eval", [
      ...args,
      "-o",
      join(dir, "queued", "dev_eval"),
      "--queue",
      r.url,
      "--topics-per-job",
      "1",
    ]);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stderr).toMatch(/run gen-eval-[0-9a-f]{16}: 3 topics, \d+ contexts, \d+ queries in/);
    expect(tree(join(dir, "queued"))).toEqual(tree(join(dir, "local")));
    expect(tree(join(dir, "local")).size).toBe(2);
    const units = (w: TestWorker) => w.log.filter((l) => l.includes("start gen-eval-topics")).length;
    expect(units(a) + units(b)).toBe(3);
  }, 180_000);
});

requires("redis-server").describe("progress through the queue on a real Redis (slow)", () => {
  it("a unit's thousands of progress calls reach Redis at most every PROGRESS_MS, and the watcher's totals come out whole", async () => {
    const r = await redis();
    const address = parseQueueUrl(r.url);
    let watching: () => void = () => {};
    const watched = new Promise<void>((resolve) => {
      watching = resolve;
    });
    let stop: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    let loopMs = 0;
    const count = defineJobKind({
      name: "count",
      payload: () => ({}),
      result: (f) => ({ n: f.integer("n") }),
      handle: async (_data, ctx) => {
        // Progress sent before the watcher listens would not be seen: wait for it.
        await watched;
        const t0 = performance.now();
        for (let i = 1; i <= 3000; i++) {
          ctx.progress(i, i * 10);
          // A turn of the event loop now and then, so that the updates are sent as they go.
          if (i % 30 === 0) await new Promise((resolve) => setImmediate(resolve));
        }
        loopMs = performance.now() - t0;
        return { n: 3000 };
      },
    });
    const countRun = defineRunKind({
      name: "count-run",
      unit: count,
      payload: () => ({}),
      result: (f) => ({ counted: f.integers("counted") }),
      handle: async (_p, units) => ({ counted: units.results.map((r) => r.n) }),
    });
    const worker = runQueueWorker(address, [count, countRun], { stop: stopped });
    await submitRun(address, {
      runId: "progress",
      kind: countRun,
      payload: {},
      units: [{ key: "only", payload: {} }],
    });
    const seen: RunProgress[] = [];
    const result = await awaitRun(address, countRun, "progress", 1, (p) => {
      seen.push(p);
      watching();
    });
    stop();
    await worker;
    expect(result.value).toEqual({ counted: [3000] });
    expect(seen.at(-1)).toMatchObject({ done: 1, items: 3000, bytes: 30_000 });
    // However long the loop took on this machine: one update at its start, at most one per
    // PROGRESS_MS after, and the last one held back (the throttle's own timing is tested with
    // fake timers in packages/queue).
    const updates = new Set(seen.map((p) => p.items).filter((n) => n > 0));
    expect(updates.size).toBeGreaterThanOrEqual(1);
    expect(updates.size).toBeLessThanOrEqual(2 + Math.floor(loopMs / PROGRESS_MS));
  }, 180_000);
});

/** `redis-cli` against a test Redis (a hostile writer: jobs rewritten behind convkit's back). */
const redisCli = (r: TestRedis, ...args: string[]) =>
  execFileSync("redis-cli", ["-p", String(r.port), ...args], { encoding: "utf8" }).trim();

/** The id of unit `index`'s job on the queue (`RUN.u0000001-…`), from its key. */
function unitJob(r: TestRedis, index: number): string {
  const keys = redisCli(
    r,
    "--raw",
    "keys",
    `bull:convkit:*.u${String(index).padStart(7, "0")}-????????????????`,
  );
  expect(keys.split("\n")).toHaveLength(1);
  return keys.slice("bull:convkit:".length);
}

requires("redis-server").describe("hostile jobs and a Redis that loses its data (slow)", () => {
  it("a segment-file unit with a stride the CLI refuses fails once, with the CLI's range; the other unit is done; the worker exits when idle", async () => {
    const r = await redis();
    const address = parseQueueUrl(r.url);
    const dir = tempDir("convkit-queue-");
    // 40 sentences a document: a stride of 0 would never get past the first window.
    writeInputs(join(dir, "in"), 2, 5);
    // The same kinds' names with checks that let anything through: a submitter other than the CLI.
    const anyUnit = defineJobKind({
      name: "segment-file",
      payload: (f) => f.get("out"),
      result: (f) => f.string("rel"),
      handle: () => Promise.reject(new Error("not run here")),
    });
    const anyRun = defineRunKind({
      name: "segment-run",
      unit: anyUnit,
      payload: (f) => ({ out: f.string("out") }),
      result: (f) => f.integer("files"),
      handle: () => Promise.reject(new Error("not run here")),
    });
    const unit = (rel: string, stride: number) => ({
      key: rel,
      payload: {
        input: { file: join(dir, "in", rel), rel },
        out: join(dir, "out"),
        formats: ["jsonl"],
        preset: "ikat",
        splitter: "heuristic",
        overrides: { stride },
      },
    });
    await submitRun(address, {
      runId: "hostile-stride",
      kind: anyRun,
      payload: { out: join(dir, "out") },
      units: [unit("part-00.jsonl", 0), unit("part-01.jsonl", 3)],
    });
    const w = startWorker(r.url, ["--exit-when-idle"]);
    const result = await awaitRun(address, anyRun, "hostile-stride", 2);
    expect(await w.exited).toBe(0);
    expect(result.value).toBe(1);
    expect(result.failed).toEqual([
      {
        reason: "segment-file payload: expected an integer of at least 1 at overrides.stride, found 0",
        badInput: false,
      },
    ]);
    expect(w.log.filter((l) => l.includes("failed segment-file"))).toHaveLength(1);
    expect(readdirSync(join(dir, "out")).sort()).toEqual(["part-01.jsonl", "part-01.manifest.json"]);
  }, 120_000);

  it("a gen-eval-topics unit with a mu the CLI refuses fails once, with the CLI's range", async () => {
    const r = await redis();
    const address = parseQueueUrl(r.url);
    const dir = tempDir("convkit-queue-");
    const anyTopics = defineJobKind({
      name: "gen-eval-topics",
      payload: (f) => f.get("spools"),
      result: (f) => f.integer("topics"),
      handle: () => Promise.reject(new Error("not run here")),
    });
    const anyRun = defineRunKind({
      name: "gen-eval-run",
      unit: anyTopics,
      payload: (f) => ({
        spoolDir: f.string("spoolDir"),
        options: f.get("options"),
        unitSpools: f.get("unitSpools"),
      }),
      result: (f) => f.strings("files"),
      handle: () => Promise.reject(new Error("not run here")),
    });
    const options = {
      data: join(dir, "dev.tsv"),
      split: "dev",
      docs: join(dir, "docs"),
      texts: [join(dir, "texts")],
      qrels: join(dir, "qrels"),
      ranking: { model: "dirichlet", mu: 0 },
      out: join(dir, "out", "dev_eval"),
      formats: ["json"],
    };
    await submitRun(address, {
      runId: "hostile-mu",
      kind: anyRun,
      // The run's end would read its options fine: only the unit's are out of range.
      payload: {
        options: { ...options, ranking: { model: "dirichlet", mu: 1500 } },
        spoolDir: join(dir, "spool"),
        unitSpools: [join(dir, "spool", "u0")],
      },
      units: [{ key: "topics-0", payload: { options, topics: [1], spools: join(dir, "spool", "u0") } }],
    });
    const w = startWorker(r.url, ["--exit-when-idle"]);
    const result = await awaitRun(address, anyRun, "hostile-mu", 1);
    expect(await w.exited).toBe(0);
    expect(result.failed).toEqual([
      {
        reason: "gen-eval-topics payload: expected a positive number at options.ranking.mu, found 0",
        badInput: false,
      },
    ]);
    expect(w.log.filter((l) => l.includes("failed gen-eval-topics"))).toHaveLength(1);
  }, 120_000);

  it("jobs whose data or options are not JSON: status and clean list them; a worker fails each once and exits when idle; the run ends 1 with one line each", async () => {
    const r = await redis();
    const dir = tempDir("convkit-queue-");
    writeInputs(join(dir, "in"), 3, 20);
    const submit = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url, "--detach"]);
    expect(submit.code, submit.stderr).toBe(0);
    const [badData, badOpts] = [unitJob(r, 0), unitJob(r, 1)];
    redisCli(r, "hset", `bull:convkit:${badData}`, "data", "{not json");
    redisCli(r, "hset", `bull:convkit:${badOpts}`, "opts", "[1,");
    const status = await runCliAsync("queue", ["status", "--queue", r.url]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/\tsegment-run\twaiting-children\t3\t0\t0\t1\t0\n$/);
    const listed = status.stderr.split("\n");
    expect(listed).toHaveLength(3);
    expect(listed.filter((l) => l.startsWith(`job ${badData}: unreadable: data is not JSON (`))).toHaveLength(
      1,
    );
    expect(listed.filter((l) => l.startsWith(`job ${badOpts}: unreadable: opts is not JSON (`))).toHaveLength(
      1,
    );
    const w = startWorker(r.url, ["--exit-when-idle"]);
    expect(await w.exited).toBe(0);
    expect(w.log.filter((l) => l.includes("failed segment-file"))).toHaveLength(2);
    const q = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url]);
    expect(q.code).toBe(1);
    const lines = q.stderr.split("\n");
    expect(lines[0]).toMatch(/on the queue already: not submitted again$/);
    expect(lines.filter((l) => l.startsWith(`job ${badData}: data is not JSON (`))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith(`job ${badOpts}: opts is not JSON (`))).toHaveLength(1);
    expect(q.stderr).toMatch(
      /: 1 files \(0 already done\), 20 documents, \d+ passages in [\d.]+ s; 2 input files failed \(above\)\n$/,
    );
    const after = await runCliAsync("queue", ["status", "--queue", r.url]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/\tsegment-run\tcompleted\t3\t1\t2\t0\t0\n$/);
    const runId = /^(segment-[0-9a-f]{16})\t/m.exec(after.stdout)![1]!;
    const clean = await runCliAsync("queue", ["clean", "--queue", r.url, "--run-id", runId]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stderr).toBe("3 jobs removed\n");
  }, 120_000);

  it("status and clean of a queue holding a job BullMQ cannot read, before any worker: listed, then removed", async () => {
    const r = await redis();
    const dir = tempDir("convkit-queue-");
    writeInputs(join(dir, "in"), 2, 5);
    const submit = await segment(join(dir, "in"), join(dir, "queued"), ["--queue", r.url, "--detach"]);
    expect(submit.code, submit.stderr).toBe(0);
    const runId = /run (segment-[0-9a-f]{16})/.exec(submit.stderr)![1]!;
    redisCli(r, "hset", `bull:convkit:${runId}.run`, "data", "nope");
    const status = await runCliAsync("queue", ["status", "--queue", r.url, "--run-id", runId]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toBe("run\tkind\tstate\tunits\tdone\tfailed\twaiting\trunning\n");
    expect(status.stderr).toMatch(
      new RegExp(`^job ${runId}\\.run: unreadable: data is not JSON \\(.*\\)\\n$`),
    );
    const clean = await runCliAsync("queue", ["clean", "--queue", r.url, "--run-id", runId]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stderr).toBe("3 jobs removed\n");
    expect(redisCli(r, "keys", "bull:convkit:segment-*")).toBe("");
  }, 120_000);

  it("Redis restarted empty while a run is watched: the watcher fails with one line within seconds", async () => {
    const r = await redis();
    const address = parseQueueUrl(r.url);
    const noop = defineJobKind({
      name: "noop",
      payload: () => ({}),
      result: () => ({}),
      handle: async () => ({}),
    });
    const noopRun = defineRunKind({
      name: "noop-run",
      unit: noop,
      payload: () => ({}),
      result: () => ({}),
      handle: async () => ({}),
    });
    await submitRun(address, {
      runId: "vanishing",
      kind: noopRun,
      payload: {},
      units: [{ key: "a", payload: {} }],
    });
    let watching: () => void = () => {};
    const watched = new Promise<void>((resolve) => {
      watching = resolve;
    });
    // No worker: the run would wait forever. The first progress call comes once the parent is found.
    const outcome = awaitRun(address, noopRun, "vanishing", 1, () => watching()).then(
      () => "resolved",
      (e: Error) => e.message,
    );
    await watched;
    await r.stop();
    rmSync(join(r.dir, "appendonlydir"), { recursive: true, force: true });
    await r.restart();
    const t0 = performance.now();
    expect(await outcome).toBe(
      `run vanishing: its jobs are gone from ${r.url} (Redis lost its data, or the run was cleaned): submit it again`,
    );
    expect(performance.now() - t0).toBeLessThan(20_000);
  }, 120_000);
});
