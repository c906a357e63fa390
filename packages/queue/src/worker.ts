// A queue worker: takes jobs of any kind it has a handler for and runs them. Handlers keep CPU
// work on worker threads (the local pool), so this thread stays free to renew BullMQ's locks; a
// worker killed mid-job leaves a lock that expires, and another worker takes the job again.
import { InputError, UsageError } from "@convkit/io";
import { type Job, Queue, UnrecoverableError, Worker } from "bullmq";
import { connectionOptions, QUEUE_NAME, type QueueAddress } from "./connection.js";
import type { RunResult, UnitFailure } from "./run.js";

/** How a bad input's failure is told from others in a job's failed reason (stripped when shown). */
const BAD_INPUT = "bad input: ";
/** Least time between two progress updates of a job sent to Redis. */
const PROGRESS_MS = 250;

function unitFailure(reason: string): UnitFailure {
  return reason.startsWith(BAD_INPUT)
    ? { reason: reason.slice(BAD_INPUT.length), badInput: true }
    : { reason, badInput: false };
}

/** What a handler gets besides its job's data. */
export interface JobContext {
  /** Reports progress (items and bytes so far in this job), shown by whoever awaits the run. */
  progress(items: number, bytes: number): void;
  /** For a run's parent: its units' results in unit order (failed units left out). */
  readonly unitResults: readonly unknown[];
  /** For a run's parent: the failed units, in unit order. */
  readonly failed: readonly UnitFailure[];
}

/** Runs one job of a kind; its result is the unit's entry in the run (e.g. a manifest line). */
export type JobHandler = (data: Record<string, unknown>, ctx: JobContext) => Promise<unknown>;

/** Options of {@link runQueueWorker}. */
export interface QueueWorkerOptions {
  /** Stop once the queue has nothing waiting, running or delayed. */
  exitWhenIdle?: boolean;
  /** Seconds without a lock renewal after which a job counts as stalled and is taken again. */
  stallSeconds?: number;
  /** One line per job started, done or failed (stderr in the CLI). */
  log?: (line: string) => void;
  /** Resolves when the worker should stop (SIGTERM): the job in hand is finished first. */
  stop?: Promise<void>;
}

/** Handles a unit's data: its index (its place in the run) travels with its result. */
interface UnitResult {
  index: number;
  value: unknown;
}

/**
 * Takes jobs until stopped (or idle, with `exitWhenIdle`). A handler's {@link InputError} (bad
 * input) fails its job at once, without retries, its one-line message kept as the job's failed
 * reason; other errors are retried as the job's options say.
 */
export async function runQueueWorker(
  a: QueueAddress,
  handlers: Readonly<Record<string, JobHandler>>,
  o: QueueWorkerOptions = {},
): Promise<{ jobs: number }> {
  const log = o.log ?? (() => {});
  const stallMs = Math.round((o.stallSeconds ?? 30) * 1000);
  let jobs = 0;
  const processor = async (job: Job) => {
    const handler = handlers[job.name];
    if (!handler) throw new UnrecoverableError(`no handler for jobs of kind ${job.name} in this worker`);
    const data = job.data as Record<string, unknown>;
    log(`start ${job.name} ${job.id}`);
    let unitResults: unknown[] = [];
    let failed: UnitFailure[] = [];
    const isParent = typeof data.units === "number";
    if (isParent) {
      const values = Object.values(await job.getChildrenValues()) as UnitResult[];
      unitResults = values.sort((x, y) => x.index - y.index).map((v) => v.value);
      // Unit job keys sort in unit order (their ids begin with the unit's place, zero-padded).
      const failures = await job.getIgnoredChildrenFailures();
      failed = Object.keys(failures)
        .sort()
        .map((k) => unitFailure(failures[k]!));
    }
    try {
      // Progress goes to Redis at most every PROGRESS_MS: a unit's batches can be hundreds a
      // second, and every update is a Redis call here and an event for each watcher to read.
      // The last one held back is sent when the job ends, so watchers' totals come out whole.
      let lastProgress = 0;
      let heldBack: { items: number; bytes: number } | undefined;
      const value = await handler(data, {
        progress: (items, bytes) => {
          const now = performance.now();
          if (now - lastProgress < PROGRESS_MS) {
            heldBack = { items, bytes };
            return;
          }
          lastProgress = now;
          heldBack = undefined;
          void job.updateProgress({ items, bytes }).catch(() => {});
        },
        unitResults,
        failed,
      });
      if (heldBack) await job.updateProgress(heldBack).catch(() => {});
      jobs++;
      log(`done ${job.name} ${job.id}`);
      if (isParent) return { value, failed } satisfies RunResult;
      return { index: data.index as number, value } satisfies UnitResult;
    } catch (e) {
      log(`failed ${job.name} ${job.id}: ${(e as Error).message}`);
      if (e instanceof InputError || e instanceof UsageError)
        throw new UnrecoverableError(`${BAD_INPUT}${e.message}`);
      // Anything else is retried; the last attempt's message is what the run reports.
      const unit = typeof data.unitKey === "string" ? `${data.unitKey}: ` : "";
      throw new Error(`${unit}${(e as Error).message.split("\n")[0]}`);
    }
  };
  const connection = connectionOptions(a);
  const worker = new Worker(QUEUE_NAME, processor, {
    connection,
    concurrency: 1,
    lockDuration: stallMs,
    stalledInterval: stallMs,
    // A machine that dies again and again should not fail the job: the work is idempotent.
    maxStalledCount: 10,
    autorun: false,
  });
  // Connection errors: ioredis reconnects, BullMQ retries. Said once per distinct message a
  // minute, so a worker that cannot make progress (Redis out of memory, say) does not look idle.
  const said = new Map<string, number>();
  worker.on("error", (e: Error) => {
    const now = Date.now();
    if ((said.get(e.message) ?? 0) > now - 60_000) return;
    said.set(e.message, now);
    log(`error: ${e.message.split("\n")[0]}`);
  });
  const queue = new Queue(QUEUE_NAME, { connection });
  queue.on("error", () => {});
  const finished = worker.run();
  let idleCheck: NodeJS.Timeout | undefined;
  if (o.exitWhenIdle) {
    idleCheck = setInterval(() => {
      void queue
        .getJobCounts("active", "waiting", "delayed", "prioritized", "waiting-children")
        .then((c) => {
          if (Object.values(c).every((n) => n === 0)) void worker.close();
        })
        .catch(() => {});
    }, 500);
  }
  void o.stop?.then(() => worker.close());
  try {
    await finished;
  } finally {
    if (idleCheck) clearInterval(idleCheck);
    await worker.close();
    await queue.close();
  }
  return { jobs };
}
