// A run on the queue: one BullMQ flow (a parent job for the run, one child per unit of work),
// submitted under ids derived from the run id and each unit's key, so that submitting the same
// run twice adds nothing; then watched to its end from any machine.
import { createHash } from "node:crypto";
import { ConvkitError, messageOf, UsageError } from "@convkit/io";
import { Fields } from "@convkit/json";
import type { Queue } from "bullmq";
import {
  checkRedis,
  connectionOptions,
  loadBullmq,
  plainClient,
  QUEUE_NAME,
  type QueueAddress,
} from "./connection.js";
import { decodeFailure, type RunEnvelope, type UnitEnvelope } from "./envelope.js";
import { checkOutgoing, jobDataMismatch, type RunKind, type UnitFailure } from "./kind.js";

/** A run to submit: its kind (the parent's; its units' kind with it), the parent's payload, the units in their order. */
export interface RunPlan<P, R, UP, UR> {
  readonly runId: string;
  readonly kind: RunKind<P, R, UP, UR>;
  readonly payload: P;
  /** Each unit: a key naming it within the run (an input's path), its payload. */
  readonly units: readonly { readonly key: string; readonly payload: UP }[];
}

/** What a run's parent job returns: its kind's result and the failed units, in unit order. */
export interface RunResult<R> {
  readonly value: R;
  readonly failed: readonly UnitFailure[];
}

/** The exit code a run ends with, as a local run would: 1 for any failure not the input's, 2 for bad input. */
export function runExitCode(r: Pick<RunResult<unknown>, "failed">): number {
  return r.failed.some((f) => !f.badInput) ? 1 : r.failed.length ? 2 : 0;
}

/** A run's result as its parent stored it in Redis, checked (the value by the run's kind). */
function readRunResult<R>(kind: RunKind<unknown, R, unknown, unknown>, v: unknown): RunResult<R> {
  const f = Fields.of(v, jobDataMismatch(`${kind.name} run result`));
  return {
    value: kind.result(f.get("value")),
    failed: f.objects("failed").map((x) => ({ reason: x.string("reason"), badInput: x.boolean("badInput") })),
  };
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

/**
 * A unit's job id: the run id, the unit's place in the run (so that job keys sort in unit order)
 * and a digest of its key (keys are paths: any character).
 */
const unitJobId = (runId: string, index: number, key: string) =>
  `${runId}.u${String(index).padStart(7, "0")}-${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;

/** The run and role a job id of {@link parentJobId} or {@link unitJobId} names (for a job whose data cannot be read), else undefined. */
export function runOfJobId(jobId: string): { runId: string; role: "run" | "unit" } | undefined {
  const m = /^(.+)\.(?:(run)|u\d{7}-[0-9a-f]{16})$/.exec(jobId);
  const runId = m?.[1];
  return runId === undefined ? undefined : { runId, role: m?.[2] ? "run" : "unit" };
}

/** The Redis key that claims a run id for one submission (two submitters at once: one adds the flow). */
const claimKey = (runId: string) => `convkit:run:${runId}`;

/** How long a finished parent (the run's result) stays in Redis for `awaitRun` and `convkit-queue status`. */
export const KEEP_RESULT_SECONDS = 7 * 24 * 3600;

/**
 * Submits the run as one flow, unless it is on the queue already. Units are retried twice on failures that are not bad input (a
 * bad input fails its unit at once, see the worker); a failed unit does not hold up the run:
 * the parent runs when every unit has ended, with the failures listed. Finished units leave
 * Redis at once (their results are kept on the parent), so memory does not grow with the run.
 */
export async function submitRun<P, R, UP, UR>(
  a: QueueAddress,
  plan: RunPlan<P, R, UP, UR>,
): Promise<"submitted" | "exists"> {
  // Payloads checked as a worker will read them, before anything is claimed or sent.
  const parent: RunEnvelope = {
    role: "run",
    runId: plan.runId,
    units: plan.units.length,
    payload: checkOutgoing(plan.kind, plan.payload),
  };
  const units = plan.units.map(
    (u, index): UnitEnvelope => ({
      role: "unit",
      runId: plan.runId,
      index,
      key: u.key,
      payload: checkOutgoing(plan.kind.unit, u.payload),
    }),
  );
  // A run already on the queue (running, or finished within the retention time) is not added
  // again: its finished units have left Redis, and BullMQ would take them for new ones. The
  // claim is one atomic SET NX, so of two submitters at once exactly one adds the flow.
  const client = await plainClient(a);
  try {
    const claimed = await client.set(claimKey(plan.runId), "1", "EX", KEEP_RESULT_SECONDS, "NX");
    if (claimed === null) return "exists";
  } catch (e) {
    throw new ConvkitError(`${a.url}: cannot submit run ${plan.runId} (${messageOf(e)})`);
  } finally {
    client.disconnect();
  }
  const { FlowProducer } = await loadBullmq();
  const flow = new FlowProducer({ connection: connectionOptions(a) });
  flow.on("error", () => {});
  try {
    await flow.add({
      name: plan.kind.name,
      queueName: QUEUE_NAME,
      data: parent,
      opts: {
        jobId: parentJobId(plan.runId),
        removeOnComplete: { age: KEEP_RESULT_SECONDS },
        removeOnFail: { age: KEEP_RESULT_SECONDS },
        attempts: 3,
        backoff: { type: "fixed", delay: 1000 },
      },
      children: units.map((u) => ({
        name: plan.kind.unit.name,
        queueName: QUEUE_NAME,
        data: u,
        opts: {
          jobId: unitJobId(plan.runId, u.index, u.key),
          ignoreDependencyOnFailure: true,
          removeOnComplete: true,
          removeOnFail: { age: KEEP_RESULT_SECONDS },
          attempts: 3,
          backoff: { type: "fixed", delay: 1000 },
        },
      })),
    });
    return "submitted";
  } catch (e) {
    // Not submitted after all: a later submission may claim the run again.
    const c = await plainClient(a);
    await c.del(claimKey(plan.runId)).catch(() => {});
    c.disconnect();
    throw new ConvkitError(`${a.url}: cannot submit run ${plan.runId} (${messageOf(e)})`);
  } finally {
    await flow.close();
  }
}

/** Forgets a run's claim (its jobs removed): the same run may be submitted again. */
export async function releaseRun(a: QueueAddress, runId: string): Promise<void> {
  const c = await plainClient(a);
  try {
    await c.del(claimKey(runId));
  } finally {
    c.disconnect();
  }
}

/**
 * Waits for a run's parent to finish, calling `onProgress` as units report and end. Resolves
 * with the parent's result; a parent that failed rejects with its reason, one that vanished
 * from Redis (looked for every `pollMs`) with a ConvkitError saying so.
 */
export async function awaitRun<R>(
  a: QueueAddress,
  kind: RunKind<unknown, R, unknown, unknown>,
  runId: string,
  total: number,
  onProgress: (p: RunProgress) => void = () => {},
  pollMs = 2000,
): Promise<RunResult<R>> {
  const { Job, Queue, QueueEvents } = await loadBullmq();
  const connection = connectionOptions(a);
  const queue: Queue = new Queue(QUEUE_NAME, { connection });
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
    if (!jobId.startsWith(prefix)) return;
    const p = readProgress(data);
    if (!p) return;
    reported.set(jobId, p);
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
  let polling: NodeJS.Timeout | undefined;
  try {
    await events.waitUntilReady();
    // Units finished before this process watched (a run submitted again, or --detach then watch).
    const parent = await Job.fromId(queue, parentJobId(runId));
    if (!parent)
      throw new ConvkitError(
        `no run ${runId} on ${a.url} (finished runs are kept ${KEEP_RESULT_SECONDS / 86400} days)`,
      );
    const deps = await parent.getDependenciesCount().catch(() => undefined);
    if (deps) {
      p.done = deps.processed ?? 0;
      p.failed = (deps.ignored ?? 0) + (deps.failed ?? 0);
    }
    tell();
    // The end comes as an event; the parent's state is also polled, in case the event was
    // missed (a watcher reconnecting after the events stream was trimmed).
    // A parent that Redis answers is not there twice in a row has vanished (Redis restarted
    // without its data, or someone cleaned the run): no event will ever come.
    let missing = 0;
    const vanished = () =>
      new ConvkitError(
        `run ${runId}: its jobs are gone from ${a.url} (Redis lost its data, or the run was cleaned): submit it again`,
      );
    const polled = new Promise<unknown>((resolve, reject) => {
      polling = setInterval(() => {
        void Job.fromId(queue, parentJobId(runId))
          .then(async (j) => {
            missing = j ? 0 : missing + 1;
            if (missing >= 2) reject(vanished());
            const state = await j?.getState();
            if (j && state === "completed") resolve(j.returnvalue);
            else if (j && state === "failed") reject(new Error(j.failedReason));
          })
          .catch(() => {});
      }, pollMs);
    });
    // BullMQ's own answer when an event comes for a parent whose key Redis no longer has: the
    // same vanished run the poll finds (which of the two sees it first is a race).
    const finished: Promise<unknown> = parent.waitUntilFinished(events).catch((e: unknown) => {
      throw /^Missing key for job /.test(messageOf(e)) ? vanished() : e;
    });
    return readRunResult(kind, await Promise.race([finished, polled]));
  } catch (e) {
    if (e instanceof ConvkitError) throw e;
    // A failed parent's reason is a failure record (see envelope.ts): its reason is what to say.
    throw new ConvkitError(`run ${runId}: ${decodeFailure(messageOf(e).split("\n")[0] ?? "").reason}`);
  } finally {
    clearInterval(poll);
    if (polling) clearInterval(polling);
    await events.close();
    await queue.close();
  }
}

/**
 * What a `--queue` command does once it has planned its run: checks Redis, submits the run
 * (unless it is on the queue already), and unless `detach` watches it to its end. `say` gets the
 * lines a user needs (not submitted again; where to watch a detached run); `what` names the
 * units for them (`8 input files`). Resolves with the run's result, or undefined when detached.
 */
export async function submitAndAwait<P, R, UP, UR>(
  a: QueueAddress,
  plan: RunPlan<P, R, UP, UR>,
  o: {
    detach: boolean;
    what: string;
    say: (line: string) => void;
    onProgress?: (p: RunProgress) => void;
  },
): Promise<RunResult<R> | undefined> {
  await checkRedis(a);
  const submitted = await submitRun(a, plan);
  if (submitted === "exists") o.say(`run ${plan.runId} is on the queue already: not submitted again`);
  if (o.detach) {
    if (submitted === "submitted")
      o.say(
        `run ${plan.runId}: ${o.what} queued on ${a.url}; watch it with convkit-queue status --queue ${a.url} --run-id ${plan.runId}`,
      );
    return undefined;
  }
  return awaitRun(a, plan.kind, plan.runId, plan.units.length, o.onProgress);
}

/** A unit's progress event, or undefined for one that is not {items, bytes}. */
function readProgress(data: unknown): { items: number; bytes: number } | undefined {
  try {
    const f = Fields.of(data, jobDataMismatch("progress"));
    return { items: f.optionalNumber("items") ?? 0, bytes: f.optionalNumber("bytes") ?? 0 };
  } catch {
    return undefined;
  }
}
