// A queue worker: takes jobs of any kind it was given and runs them. Kinds keep CPU work on
// worker threads (their pools), so this thread stays free to renew BullMQ's locks; a worker
// killed mid-job leaves a lock that expires, and another worker takes the job again.
import { ConvkitError, InputError, messageOf, UsageError } from "@convkit/io";
import type { Job } from "bullmq";
import { connectionOptions, loadBullmq, plainClient, QUEUE_NAME, type QueueAddress } from "./connection.js";
import {
  decodeFailure,
  encodeFailure,
  type JobEnvelope,
  readEnvelope,
  readUnitReturn,
  type UnitReturn,
} from "./envelope.js";
import { JobDataError, type KindSession, type UnitOutcomes, type WorkerKind } from "./kind.js";
import { KEEP_RESULT_SECONDS, type RunResult } from "./run.js";
import { throttleProgress } from "./throttle.js";
import { repairUnreadable, UNREADABLE_FIELD } from "./unreadable.js";

/** Options of {@link runQueueWorker}. */
export interface QueueWorkerOptions {
  /** Worker threads each kind may use for its CPU work (default 1). */
  threads?: number;
  /** Stop once the queue has nothing waiting, running or delayed. */
  exitWhenIdle?: boolean;
  /** Seconds without a lock renewal after which a job counts as stalled and is taken again. */
  stallSeconds?: number;
  /** One line per job started, done or failed (stderr in the CLI). */
  log?: (line: string) => void;
  /** The lines jobs say ({@link JobContext.say}; stderr in the CLI, unprefixed). */
  say?: (line: string) => void;
  /** Resolves when the worker should stop (SIGTERM): the job in hand is finished first. */
  stop?: Promise<void>;
}

/** The reason a job's data stands for when it was rewritten as unreadable (see unreadable.ts), else undefined. */
function unreadableReason(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const reason: unknown = Object.getOwnPropertyDescriptor(data, UNREADABLE_FIELD)?.value;
  return typeof reason === "string" ? reason : undefined;
}

/** A parent's units: their results in unit order (their job ids sort in unit order) and failures. */
async function unitOutcomes(job: Job): Promise<UnitOutcomes> {
  const values = Object.values(await job.getChildrenValues()).map((v: unknown) => readUnitReturn(v));
  const failures = await job.getIgnoredChildrenFailures();
  return {
    values: values.sort((x, y) => x.index - y.index).map((v) => v.value),
    failed: Object.keys(failures)
      .sort()
      .map((k) => decodeFailure(failures[k] ?? "")),
  };
}

/**
 * Takes jobs until stopped (or idle, with `exitWhenIdle`). A handler's {@link InputError} or
 * {@link UsageError} (bad input) fails its job at once, without retries, as a bad-input failure
 * record; job data its kind refuses fails at once too (retrying reads the same data); other
 * errors are retried as the job's options say.
 */
export async function runQueueWorker(
  a: QueueAddress,
  kinds: readonly WorkerKind[],
  o: QueueWorkerOptions = {},
): Promise<{ jobs: number }> {
  const { Queue, UnrecoverableError, Worker } = await loadBullmq();
  const log = o.log ?? (() => {});
  const say = o.say ?? (() => {});
  const stallMs = Math.round((o.stallSeconds ?? 30) * 1000);
  const env = { threads: o.threads ?? 1 };
  const sessions = new Map<string, KindSession>(kinds.map((k) => [k.name, k.start(env)]));
  let jobs = 0;
  const processor = async (job: Job) => {
    const session = sessions.get(job.name);
    if (!session)
      throw new UnrecoverableError(
        encodeFailure(new ConvkitError(`no handler for jobs of kind ${job.name} in this worker`)),
      );
    log(`start ${job.name} ${job.id}`);
    let envelope: JobEnvelope | undefined;
    try {
      const unreadable = unreadableReason(job.data);
      if (unreadable !== undefined) throw new JobDataError(`job ${job.id}: ${unreadable}`);
      envelope = readEnvelope(job.data);
      const units = envelope.role === "run" ? await unitOutcomes(job) : { values: [], failed: [] };
      const progress = throttleProgress((p) => void job.updateProgress(p).catch(() => {}));
      const value = await session.handle(envelope.payload, { progress: progress.report, say }, units);
      const heldBack = progress.flush();
      if (heldBack) await job.updateProgress(heldBack).catch(() => {});
      jobs++;
      log(`done ${job.name} ${job.id}`);
      if (envelope.role === "run") return { value, failed: units.failed } satisfies RunResult<unknown>;
      return { index: envelope.index, value } satisfies UnitReturn;
    } catch (e) {
      const message = messageOf(e);
      log(`failed ${job.name} ${job.id}: ${message}`);
      if (e instanceof InputError || e instanceof UsageError || e instanceof JobDataError)
        throw new UnrecoverableError(encodeFailure(e));
      // Anything else is retried; the last attempt's reason is what the run reports.
      const unit = envelope?.role === "unit" ? `${envelope.key}: ` : "";
      throw new Error(encodeFailure(new ConvkitError(`${unit}${message.split("\n")[0]}`, { cause: e })));
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
  // Jobs BullMQ cannot read are made readable before any is taken, and again whenever the worker
  // trips on one (BullMQ then reports a SyntaxError, and the job's lock expires: the stall
  // check hands it out again, and the processor fails it once).
  const client = await plainClient(a);
  let repairing: Promise<void> | undefined;
  const repair = () => {
    repairing ??= repairUnreadable(queue, client, KEEP_RESULT_SECONDS)
      .then((jobs) => {
        for (const j of jobs) log(`unreadable job ${j.id}: ${j.reason}; failing it`);
      })
      .catch((e: unknown) => log(`error: ${messageOf(e).split("\n")[0]}`))
      .finally(() => {
        repairing = undefined;
      });
    return repairing;
  };
  worker.on("error", (e: Error) => {
    if (e instanceof SyntaxError) void repair();
  });
  await repair();
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
    await repairing;
    client.disconnect();
    for (const s of sessions.values()) await s.close();
  }
  return { jobs };
}
