// Bench case: convkit's queue (@convkit/queue: one BullMQ flow per run on Redis 7), each run on a
// redis-server of its own (a free port, a temporary folder, append-only file and noeviction as the
// queue's READMEs ask), stopped at the end. What distributing costs, on one machine:
// `queue.mjs WORK overhead N`: the queue's cost per job: one flow of N no-op units and a parent
// that counts their results, one worker in this process; time from submitting to the run's end.
// `queue.mjs WORK gen MB` writes the web-text corpus web-MB.jsonl (bench/gen-web-corpus.mjs: ~1.2 MB
// of unique text drawn again and again; right for the queue's overhead, not for the splitters'
// speed, which bench/cases/segment.mjs measures on real text used once) when missing.
// `queue.mjs WORK segment MB local|queue`: the web-text corpus web-MB.jsonl cut by lines into 64
// files of about equal size (WORK/queue-in-MB, made once), segmented by `convkit-segment run`:
// `local` as one process with 2 threads; `queue` the same command with --queue and two
// `convkit-worker --threads 1` processes, started and connected before it (the same two cores).
// Both are timed from starting the command to its exit; `queue` checks its outputs are the local
// run's byte for byte when those are there (the local run leaves them in WORK/queue-out-MB-local).
// Peak RSS: the command's (/usr/bin/time); for `queue` the sum of the command's, the workers' and
// Redis's peaks (VmHWM, read before they are stopped), each also reported on its own.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { awaitRun, checkRedis, parseQueueUrl, runQueueWorker, submitRun } from "@convkit/queue";
import { corpusPaths, generateWebCorpus, readCorpusMeta } from "../gen-web-corpus.mjs";
import { report } from "./report.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SEGMENT_BIN = join(ROOT, "apps", "convkit", "bin", "convkit-segment.js");
const WORKER_BIN = join(ROOT, "apps", "convkit", "bin", "convkit-worker.js");
const PARTS = 64;
/** How BullMQ names a worker's connection in CLIENT LIST (`bull:` and the queue's name, "convkit", in base64). */
const WORKER_CLIENT = `name=bull:${Buffer.from("convkit").toString("base64")} `;

const [work, mode, size, where] = process.argv.slice(2);

/** A free local port: the kernel picks one, it is let go for Redis to take. */
async function freePort() {
  const s = createServer().listen(0, "127.0.0.1");
  await once(s, "listening");
  const { port } = s.address();
  s.close();
  await once(s, "close");
  return port;
}

/** Peak RSS of a running process, MiB (VmHWM). */
const peakRssMiB = (pid) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;

/** A redis-server of its own, answering (and checked for noeviction) when this resolves. */
async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), "convkit-bench-redis-"));
  const port = await freePort();
  const redis = spawn(
    "redis-server",
    [
      ...["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--save", ""],
      ...["--maxmemory-policy", "noeviction", "--daemonize", "no"],
    ],
    { stdio: "ignore" },
  );
  const exit = once(redis, "exit");
  // A run that fails leaves no server behind (nor its folder).
  process.on("exit", () => {
    redis.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  const address = parseQueueUrl(`redis://127.0.0.1:${port}`);
  await Promise.race([
    checkRedis(address, { wait: true }),
    exit.then(([code]) => Promise.reject(new Error(`redis-server on port ${port} exited (${code})`))),
  ]);
  return {
    address,
    port,
    pid: redis.pid,
    async stop() {
      redis.kill("SIGTERM");
      await exit;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** BullMQ workers connected to the queue (what BullMQ's getWorkersCount counts), asked of Redis on a plain socket. */
async function connectedWorkers(port) {
  const socket = connect(port, "127.0.0.1");
  // Inline commands; QUIT closes the connection once CLIENT LIST's answer is written.
  socket.write("CLIENT LIST\r\nQUIT\r\n");
  let reply = "";
  for await (const d of socket) reply += d;
  return reply.split("\n").filter((l) => l.includes(WORKER_CLIENT)).length;
}

/** Waits until `n` BullMQ workers are connected to the queue. */
async function waitForWorkers(port, n) {
  const deadline = performance.now() + 60_000;
  while ((await connectedWorkers(port)) < n) {
    if (performance.now() > deadline) throw new Error(`fewer than ${n} workers connected after 60 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A `convkit-worker --threads 1` process; `stop()` sends SIGTERM and resolves with the jobs it did. */
function startWorker(url) {
  const w = spawn(process.execPath, [WORKER_BIN, "--queue", url, "--threads", "1"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  w.stderr.on("data", (d) => {
    log += d;
  });
  const closed = once(w, "close");
  process.on("exit", () => w.kill("SIGKILL"));
  return {
    pid: w.pid,
    async stop() {
      w.kill("SIGTERM");
      const [code] = await closed;
      if (code !== 0) throw new Error(`convkit-worker: exit ${code}\n${log}`);
      return Number(/(\d+) jobs done/.exec(log)[1]);
    },
  };
}

/** Runs a convkit CLI under /usr/bin/time: seconds from its start to its exit, documents, passages, peak RSS. */
async function timedCli(args) {
  const t0 = performance.now();
  const cli = spawn("/usr/bin/time", ["-f", "%M", process.execPath, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  cli.stderr.on("data", (d) => {
    stderr += d;
  });
  const [code] = await once(cli, "close");
  const seconds = (performance.now() - t0) / 1000;
  if (code !== 0) throw new Error(`${args.join(" ")}: exit ${code}\n${stderr}`);
  // Both ways end with "... D documents, P passages in S s ...", then time's peak RSS in KiB.
  const [, docs, passages] = /(\d+) documents, (\d+) passages in/.exec(stderr);
  const kib = Number(stderr.trim().split("\n").at(-1));
  return { seconds, docs: Number(docs), passages: Number(passages), maxRssMiB: kib / 1024 };
}

/** WORK/queue-in-MB: the corpus cut after a line into PARTS files of about equal size (made once, in a folder renamed into place). */
async function cutCorpus(mb) {
  const dir = join(work, `queue-in-${mb}`);
  if (existsSync(dir)) return dir;
  const { input } = corpusPaths(work, mb);
  const total = statSync(input).size;
  const fd = openSync(input, "r");
  const window = Buffer.alloc(1 << 20);
  const cuts = [0];
  for (let k = 1; k < PARTS; k++) {
    // After the first line end at or past the k-th share.
    let at = Math.max(Math.floor((k * total) / PARTS), cuts.at(-1));
    for (;;) {
      const n = readSync(fd, window, 0, window.length, at);
      const nl = window.subarray(0, n).indexOf(10);
      if (nl >= 0 || n === 0) {
        at += nl + 1;
        break;
      }
      at += n;
    }
    cuts.push(at);
  }
  closeSync(fd);
  cuts.push(total);
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (let k = 0; k < PARTS; k++)
    await pipeline(
      createReadStream(input, { start: cuts[k], end: cuts[k + 1] - 1 }),
      createWriteStream(join(tmp, `part-${String(k).padStart(2, "0")}.jsonl`)),
    );
  renameSync(tmp, dir);
  return dir;
}

/** Every file under a folder, sorted, with its SHA-256: `path digest` lines. */
async function digests(dir) {
  const out = [];
  for (const f of readdirSync(dir, { recursive: true }).sort()) {
    if (!statSync(join(dir, f)).isFile()) continue;
    const h = createHash("sha256");
    for await (const chunk of createReadStream(join(dir, f))) h.update(chunk);
    out.push(`${f} ${h.digest("hex")}`);
  }
  return out;
}

if (mode === "gen") {
  // Generation in a process of its own, so that no timed run carries its memory.
  const shared = resolve(ROOT, process.env.CONVKIT_SHARED ?? "../shared");
  mkdirSync(work, { recursive: true });
  if (!readCorpusMeta(work, size)) await generateWebCorpus(shared, work, size);
} else if (mode === "overhead") {
  const n = Number(size);
  const redis = await startRedis();
  let stop;
  const stopped = new Promise((r) => {
    stop = r;
  });
  const worker = runQueueWorker(
    redis.address,
    { noop: async () => null, "noop-run": async (_data, ctx) => ctx.unitResults.length },
    { stop: stopped },
  );
  await waitForWorkers(redis.port, 1);
  const t0 = performance.now();
  await submitRun(redis.address, {
    runId: "overhead",
    kind: "noop-run",
    data: {},
    units: Array.from({ length: n }, (_, i) => ({ kind: "noop", key: String(i), data: {} })),
  });
  const r = await awaitRun(redis.address, "overhead", n);
  const seconds = (performance.now() - t0) / 1000;
  stop();
  await worker;
  if (r.value !== n || r.failed.length) throw new Error(`expected ${n} results, found ${JSON.stringify(r)}`);
  const redisRssMiB = peakRssMiB(redis.pid);
  await redis.stop();
  // Peak RSS: this process (submitter, watcher and worker); Redis's beside it.
  report({ records: n, seconds, redisRssMiB });
} else if (mode === "segment" && (where === "local" || where === "queue")) {
  const meta = readCorpusMeta(work, size);
  if (!meta) throw new Error(`${corpusPaths(work, size).input}: run \`queue.mjs ${work} gen ${size}\` first`);
  const input = await cutCorpus(size);
  const localOut = join(work, `queue-out-${size}-local`);
  const out = where === "local" ? localOut : join(work, `queue-out-${size}-queue`);
  rmSync(out, { recursive: true, force: true });
  const command = [SEGMENT_BIN, "run", input, "-o", out, "--format", "jsonl,hashes"];
  const corpus = { bytes: meta.inputBytes, segmentedBytes: meta.segmentedBytes };
  if (where === "local") {
    const r = await timedCli([...command, "--threads", "2"]);
    process.stdout.write(
      `${JSON.stringify({ records: r.docs, passages: r.passages, ...corpus, seconds: r.seconds, maxRssMiB: r.maxRssMiB })}\n`,
    );
  } else {
    const redis = await startRedis();
    const workers = [startWorker(redis.address.url), startWorker(redis.address.url)];
    await waitForWorkers(redis.port, workers.length);
    const r = await timedCli([...command, "--queue", redis.address.url]);
    const workerRssMiB = workers.map((w) => peakRssMiB(w.pid));
    const redisRssMiB = peakRssMiB(redis.pid);
    // Jobs each worker did: its files, and the run's end for one of them.
    const jobsPerWorker = await Promise.all(workers.map((w) => w.stop()));
    await redis.stop();
    const checkedAgainstLocal = existsSync(localOut);
    if (checkedAgainstLocal) {
      const [a, b] = [await digests(localOut), await digests(out)];
      const diff = a.find((line, i) => line !== b[i]) ?? b[a.length];
      if (diff !== undefined) throw new Error(`${out} differs from ${localOut} (first: ${diff})`);
    }
    rmSync(out, { recursive: true, force: true });
    process.stdout.write(
      `${JSON.stringify({
        records: r.docs,
        passages: r.passages,
        ...corpus,
        seconds: r.seconds,
        maxRssMiB: r.maxRssMiB + workerRssMiB.reduce((s, x) => s + x, 0) + redisRssMiB,
        submitterRssMiB: r.maxRssMiB,
        workerRssMiB,
        redisRssMiB,
        jobsPerWorker,
        checkedAgainstLocal,
      })}\n`,
    );
  }
} else
  throw new Error(
    "usage: queue.mjs WORK gen MB | queue.mjs WORK overhead N | queue.mjs WORK segment MB local|queue",
  );
