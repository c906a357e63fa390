// A run on the queue: one BullMQ flow (a parent job for the run, one child per unit of work),
// submitted under ids derived from the run id and each unit's key, so that submitting the same
// run twice adds nothing; then watched to its end from any machine.
import { createHash } from "node:crypto";
import { UsageError } from "@convkit/io";
import { FlowProducer, Job, Queue, QueueEvents } from "bullmq";
import { connectionOptions, QUEUE_NAME, type QueueAddress } from "./connection.js";

/** A unit of a run: its job kind, a key naming it within the run (an input's path), its data. */
export interface RunUnit {
  readonly kind: string;
  readonly key: string;
  readonly data: Record<string, unknown>;
}

/** A run to submit: the parent's kind and data, and the units (children), in their order. */
export interface RunPlan {
  readonly runId: string;
  readonly kind: string;
  readonly data: Record<string, unknown>;
  readonly units: readonly RunUnit[];
}

/** What a run's parent job returns: its kind's result and the failed units' one-line reasons, in unit order. */
export interface RunResult {
  readonly value: unknown;
  readonly failed: readonly string[];
}

/** Where a run is: units done, failed and in total, documents and bytes reported, workers connected. */
export interface RunProgress {
  done: number;
  failed: number;
  total: number;
  items: number;
  bytes: number;
  workers: number;
}

const ID = /^[A-Za-z0-9_.-]{1,100}$/;

/** Checks a `--run-id` (BullMQ ids may not hold `:` nor be all digits). */
export function checkRunId(id: string): string {
  if (!ID.test(id) || /^\d+$/.test(id))
    throw new UsageError(
      `--run-id: expected letters, digits, '.', '_' or '-' (not only digits), found ${JSON.stringify(id)}`,
    );
  return id;
}

/** A run id derived from what defines the run (inputs, options, output folder): the same command gives the same id. */
export function deriveRunId(kind: string, definition: unknown): string {
  return `${kind}-${createHash("sha256").update(JSON.stringify(definition)).digest("hex").slice(0, 16)}`;
}

/** The parent job's id. */
export const parentJobId = (runId: string) => `${runId}.run`;

/** A unit's job id: the run id and a digest of its key (keys are paths: any character). */
const unitJobId = (runId: string, key: string) =>
  `${runId}.u${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;

/** How long a finished parent (the run's result) stays in Redis for `awaitRun` and `convkit-queue status`. */
const KEEP_RESULT_SECONDS = 7 * 24 * 3600;

/**
 * Submits the run as one flow, unless it is on the queue already. Units are retried twice on failures that are not bad input (a
 * bad input fails its unit at once, see the worker); a failed unit does not hold up the run:
 * the parent runs when every unit has ended, with the failures listed. Finished units leave
 * Redis at once (their results are kept on the parent), so memory does not grow with the run.
 */
export async function submitRun(a: QueueAddress, plan: RunPlan): Promise<"submitted" | "exists"> {
  // A run already on the queue (running, or finished within the retention time) is not added
  // again: its finished units have left Redis, and BullMQ would take them for new ones.
  const queue = new Queue(QUEUE_NAME, { connection: connectionOptions(a) });
  queue.on("error", () => {});
  try {
    if (await Job.fromId(queue, parentJobId(plan.runId))) return "exists";
  } finally {
    await queue.close();
  }
  const flow = new FlowProducer({ connection: connectionOptions(a) });
  try {
    await flow.add({
      name: plan.kind,
      queueName: QUEUE_NAME,
      data: { ...plan.data, runId: plan.runId, units: plan.units.length },
      opts: {
        jobId: parentJobId(plan.runId),
        removeOnComplete: { age: KEEP_RESULT_SECONDS },
        removeOnFail: { age: KEEP_RESULT_SECONDS },
      },
      children: plan.units.map((u, index) => ({
        name: u.kind,
        queueName: QUEUE_NAME,
        data: { ...u.data, runId: plan.runId, index },
        opts: {
          jobId: unitJobId(plan.runId, u.key),
          ignoreDependencyOnFailure: true,
          removeOnComplete: true,
          removeOnFail: { age: KEEP_RESULT_SECONDS },
          attempts: 3,
          backoff: { type: "fixed", delay: 1000 },
        },
      })),
    });
    return "submitted";
  } finally {
    await flow.close();
  }
}

/**
 * Waits for a run's parent to finish, calling `onProgress` as units report and end. Resolves
 * with the parent's result; a parent that failed rejects with its reason.
 */
export async function awaitRun(
  a: QueueAddress,
  runId: string,
  total: number,
  onProgress: (p: RunProgress) => void = () => {},
): Promise<RunResult> {
  const connection = connectionOptions(a);
  const queue = new Queue(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  const p: RunProgress = { done: 0, failed: 0, total, items: 0, bytes: 0, workers: 0 };
  // Per unit, the last progress it reported (a retried unit starts again from 0).
  const reported = new Map<string, { items: number; bytes: number }>();
  const prefix = `${runId}.u`;
  const tell = () => {
    p.items = 0;
    p.bytes = 0;
    for (const r of reported.values()) {
      p.items += r.items;
      p.bytes += r.bytes;
    }
    onProgress({ ...p });
  };
  events.on("progress", ({ jobId, data }) => {
    if (!jobId.startsWith(prefix) || typeof data !== "object" || data === null) return;
    const d = data as { items?: number; bytes?: number };
    reported.set(jobId, { items: d.items ?? 0, bytes: d.bytes ?? 0 });
    tell();
  });
  events.on("completed", ({ jobId }) => {
    if (!jobId.startsWith(prefix)) return;
    p.done++;
    tell();
  });
  events.on("failed", ({ jobId }) => {
    if (!jobId.startsWith(prefix)) return;
    p.failed++;
    tell();
  });
  // Connection errors: ioredis reconnects by itself.
  queue.on("error", () => {});
  events.on("error", () => {});
  const poll = setInterval(() => {
    void queue
      .getWorkersCount()
      .then((n) => {
        p.workers = Math.max(p.workers, n);
        tell();
      })
      .catch(() => {});
  }, 1000);
  try {
    await events.waitUntilReady();
    // Units finished before this process watched (a run submitted again, or --detach then watch).
    const parent = await Job.fromId(queue, parentJobId(runId));
    if (!parent)
      throw new UsageError(
        `no run ${runId} on ${a.url} (finished runs are kept ${KEEP_RESULT_SECONDS / 86400} days)`,
      );
    const deps = await parent.getDependenciesCount().catch(() => undefined);
    if (deps) {
      p.done = deps.processed ?? 0;
      p.failed = (deps.ignored ?? 0) + (deps.failed ?? 0);
    }
    tell();
    return (await parent.waitUntilFinished(events)) as RunResult;
  } finally {
    clearInterval(poll);
    await events.close();
    await queue.close();
  }
}
