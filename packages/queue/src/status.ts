// The queue's state per run (what `convkit-queue` prints), retrying failed units, and removing a
// run's jobs.
import { UsageError } from "@convkit/io";
import type { Job, Queue } from "bullmq";
import { connectionOptions, loadBullmq, QUEUE_NAME, type QueueAddress } from "./connection.js";
import { decodeFailure, envelopeOrNothing } from "./envelope.js";
import { parentJobId, releaseRun } from "./run.js";

/** One run's state: its parent's state and its units' counts. */
export interface RunStatus {
  runId: string;
  kind: string;
  /** The parent: waiting-children (units running), waiting/active (finishing), completed, failed. */
  state: string;
  units: number;
  done: number;
  failed: number;
  waiting: number;
  active: number;
  /** Failed units' reasons. */
  failures: string[];
}

const STATES = [
  "waiting-children",
  "waiting",
  "active",
  "delayed",
  "prioritized",
  "completed",
  "failed",
] as const;

async function withQueue<T>(a: QueueAddress, f: (q: Queue) => Promise<T>): Promise<T> {
  const { Queue } = await loadBullmq();
  const q = new Queue(QUEUE_NAME, { connection: connectionOptions(a) });
  q.on("error", () => {});
  try {
    return await f(q);
  } finally {
    await q.close();
  }
}

/** Every run on the queue (or the one asked for), from its parent job and its units' jobs. */
export function queueStatus(a: QueueAddress, runId?: string): Promise<RunStatus[]> {
  return withQueue(a, async (q) => {
    // Each job with its envelope (jobs that are not convkit's are left out).
    const jobs = (await q.getJobs([...STATES], 0, -1, true)).flatMap((job: Job | undefined) => {
      const envelope = job ? envelopeOrNothing(job.data) : undefined;
      return job && envelope ? [{ job, envelope }] : [];
    });
    const runs = new Map<string, RunStatus>();
    for (const { job: p, envelope } of jobs) {
      if (envelope.role !== "run") continue;
      const id = envelope.runId;
      if (runId !== undefined && id !== runId) continue;
      const deps = await p.getDependenciesCount().catch(() => undefined);
      runs.set(id, {
        runId: id,
        kind: p.name,
        state: await p.getState(),
        units: envelope.units,
        done: deps?.processed ?? 0,
        failed: 0,
        waiting: 0,
        active: 0,
        failures: [],
      });
    }
    for (const { job: j, envelope } of jobs) {
      const r = runs.get(envelope.runId);
      if (!r || envelope.role !== "unit") continue;
      const s = await j.getState();
      if (s === "failed") {
        r.failed++;
        r.failures.push(decodeFailure(j.failedReason).reason);
      } else if (s === "active") r.active++;
      else if (s !== "completed") r.waiting++;
    }
    return [...runs.values()].sort((x, y) => (x.runId < y.runId ? -1 : x.runId > y.runId ? 1 : 0));
  });
}

/**
 * Retries a run's failed jobs while the run is open (its units still running, or its end
 * failed: a full disk when writing the manifest, say); returns how many. Units that failed in
 * a run that has ended cannot rejoin it: that is a usage error saying what to do instead.
 */
export function retryRun(a: QueueAddress, runId: string): Promise<number> {
  return withQueue(a, async (q) => {
    const { Job } = await loadBullmq();
    const parent = await Job.fromId(q, parentJobId(runId));
    if (!parent) throw new UsageError(`no run ${runId} on ${a.url}`);
    if ((await parent.getState()) === "completed")
      throw new UsageError(
        `run ${runId} has ended: fix what failed, then convkit-queue clean --run-id ${runId} and submit the run again (its finished units are done again, to the same bytes)`,
      );
    let n = 0;
    for (const j of await q.getJobs(["failed"], 0, -1, true)) {
      if (!j || envelopeOrNothing(j.data)?.runId !== runId) continue;
      await j.retry("failed", { resetAttemptsMade: true });
      n++;
    }
    return n;
  });
}

/**
 * Removes every job of a run (finished or not, except running ones) and its claim, so that the
 * same run may be submitted again; returns how many jobs.
 */
export function cleanRun(a: QueueAddress, runId: string): Promise<number> {
  return withQueue(a, async (q) => {
    let n = 0;
    for (const j of await q.getJobs([...STATES], 0, -1, true)) {
      if (!j || envelopeOrNothing(j.data)?.runId !== runId || (await j.getState()) === "active") continue;
      await j.remove({ removeChildren: true }).catch(() => {});
      n++;
    }
    await releaseRun(a, runId);
    return n;
  });
}
