// The queue's state per run (what `convkit-queue` prints), retrying failed units, and removing a
// run's jobs.
import { UsageError } from "@convkit/io";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { connectionOptions, loadBullmq, plainClient, QUEUE_NAME, type QueueAddress } from "./connection.js";
import { decodeFailure, envelopeOrNothing, type JobEnvelope } from "./envelope.js";
import { parentJobId, releaseRun, runOfJobId } from "./run.js";
import { type ListedJob, listJobs } from "./unreadable.js";

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

/** A job that BullMQ cannot read, and its reason (its run, when its id names one). */
export interface UnreadableJob {
  id: string;
  runId?: string;
  reason: string;
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

async function withQueue<T>(a: QueueAddress, f: (q: Queue, client: Redis) => Promise<T>): Promise<T> {
  const { Queue } = await loadBullmq();
  const q = new Queue(QUEUE_NAME, { connection: connectionOptions(a) });
  q.on("error", () => {});
  const client = await plainClient(a);
  try {
    return await f(q, client);
  } finally {
    client.disconnect();
    await q.close();
  }
}

/**
 * A listed job's run and role: its envelope's, else (data unreadable, or rewritten by a worker
 * to fail it) the ones its id names; undefined for a job that is not convkit's.
 */
function runOf(j: ListedJob): { runId: string; role: "run" | "unit"; envelope?: JobEnvelope } | undefined {
  const envelope = j.job && envelopeOrNothing(j.job.data);
  return envelope ? { runId: envelope.runId, role: envelope.role, envelope } : runOfJobId(j.id);
}

/**
 * Every run on the queue (or the one asked for), from its parent job and its units' jobs; and
 * apart, the jobs BullMQ cannot read (of that run, by their ids, or of any run).
 */
export function queueStatus(
  a: QueueAddress,
  runId?: string,
): Promise<{ runs: RunStatus[]; unreadable: UnreadableJob[] }> {
  return withQueue(a, async (q, client) => {
    const listed = await listJobs(q, client, [...STATES]);
    const ofRun = (id: string | undefined) => runId === undefined || id === runId;
    // Unreadable jobs, convkit's or not (asked for a run: those its id names).
    const unreadable = listed.flatMap((j): UnreadableJob[] => {
      const id = runOfJobId(j.id)?.runId;
      return j.unreadable !== undefined && ofRun(id) ? [{ id: j.id, runId: id, reason: j.unreadable }] : [];
    });
    // Each readable job with its run (jobs that are not convkit's are left out).
    const jobs = listed.flatMap((j) => {
      const run = runOf(j);
      return j.job && run && ofRun(run.runId) ? [{ job: j.job, ...run }] : [];
    });
    const runs = new Map<string, RunStatus>();
    for (const j of jobs) {
      if (j.envelope?.role !== "run") continue;
      const deps = await j.job.getDependenciesCount().catch(() => undefined);
      runs.set(j.runId, {
        runId: j.runId,
        kind: j.job.name,
        state: await j.job.getState(),
        units: j.envelope.units,
        done: deps?.processed ?? 0,
        failed: 0,
        waiting: 0,
        active: 0,
        failures: [],
      });
    }
    for (const j of jobs) {
      const r = runs.get(j.runId);
      if (!r || j.role !== "unit") continue;
      const s = await j.job.getState();
      if (s === "failed") {
        r.failed++;
        r.failures.push(decodeFailure(j.job.failedReason).reason);
      } else if (s === "active") r.active++;
      else if (s !== "completed") r.waiting++;
    }
    return {
      runs: [...runs.values()].sort((x, y) => (x.runId < y.runId ? -1 : x.runId > y.runId ? 1 : 0)),
      unreadable,
    };
  });
}

/**
 * Retries a run's failed jobs while the run is open (its units still running, or its end
 * failed: a full disk when writing the manifest, say); returns how many. Units that failed in
 * a run that has ended cannot rejoin it: that is a usage error saying what to do instead.
 */
export function retryRun(a: QueueAddress, runId: string): Promise<number> {
  return withQueue(a, async (q, client) => {
    const { Job } = await loadBullmq();
    const parent = await Job.fromId(q, parentJobId(runId)).catch(() => {
      throw new UsageError(
        `run ${runId}: its parent job cannot be read; convkit-queue clean --run-id ${runId}`,
      );
    });
    if (!parent) throw new UsageError(`no run ${runId} on ${a.url}`);
    if ((await parent.getState()) === "completed")
      throw new UsageError(
        `run ${runId} has ended: fix what failed, then convkit-queue clean --run-id ${runId} and submit the run again (its finished units are done again, to the same bytes)`,
      );
    let n = 0;
    for (const j of await listJobs(q, client, ["failed"])) {
      // An unreadable job fails again: it is left for clean.
      if (!j.job || runOf(j)?.runId !== runId) continue;
      await j.job.retry("failed", { resetAttemptsMade: true });
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
  return withQueue(a, async (q, client) => {
    let n = 0;
    for (const j of await listJobs(q, client, [...STATES])) {
      if (runOf(j)?.runId !== runId) continue;
      // A running job is left; an unreadable one runs nowhere (BullMQ refuses a locked job).
      if (j.job && (await j.job.getState()) === "active") continue;
      if ((await q.remove(j.id, { removeChildren: true }).catch(() => 0)) === 1) n++;
    }
    await releaseRun(a, runId);
    return n;
  });
}
