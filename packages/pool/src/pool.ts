// The one worker pool of convkit's jobs. Why one: each job had its own piscina setup and its own
// in-order loop, and only one of them brought a worker's InputError back as an InputError (the
// others exited 1 with a stack trace on bad input met in a worker). Here: piscina set up once,
// convkit's errors carried across the thread boundary both ways, and `inOrder`, the bounded
// window that hands results back in submission order, which is what makes a job's bytes the
// same for any thread count.
import { errorFromData, errorToData } from "@convkit/io";

/** How a job's pool is made. */
export interface TaskPoolOptions {
  /** The worker module (its default export made with {@link taskWorker}). */
  worker: URL;
  threads: number;
  /** Sent once to each worker (`workerData`): what every task needs, e.g. a question bank. */
  workerData?: unknown;
  /** Caps each worker's old-generation heap (V8 otherwise lets it grow lazily). */
  maxOldGenerationSizeMb?: number;
  /**
   * Caps each worker's young generation (V8 grows it to its largest, 32 MiB on Node 20 and 64 MiB
   * on Node 24, in every worker whose tasks allocate fast, all of it resident).
   */
  maxYoungGenerationSizeMb?: number;
  /**
   * Tasks a worker may hold at once (default 1). 2 lets a finished worker start its next task
   * while the main thread, busy writing, has not yet handed one out.
   */
  tasksPerWorker?: number;
}

/** A pool of worker threads running one kind of task. */
export interface TaskPool<Task, Result> {
  readonly threads: number;
  /** Runs a task; `transfer` lists buffers moved to the worker rather than copied. Rejects with the worker's error, its convkit class restored. */
  run(task: Task, transfer?: ArrayBuffer[]): Promise<Result>;
  destroy(): Promise<void>;
}

/** Opens a pool of `threads` workers (piscina, loaded only when a job runs threaded). */
export async function openTaskPool<Task, Result>(o: TaskPoolOptions): Promise<TaskPool<Task, Result>> {
  const { Piscina } = await import("piscina");
  const pool = new Piscina({
    filename: o.worker.href,
    minThreads: o.threads,
    maxThreads: o.threads,
    concurrentTasksPerWorker: o.tasksPerWorker ?? 1,
    recordTiming: false,
    ...(o.workerData === undefined ? {} : { workerData: o.workerData }),
    // A limit left undefined is V8's default (Node's Worker reads only the numbers).
    resourceLimits: {
      maxOldGenerationSizeMb: o.maxOldGenerationSizeMb,
      maxYoungGenerationSizeMb: o.maxYoungGenerationSizeMb,
    },
  });
  return {
    threads: o.threads,
    run: async (task, transfer) => {
      try {
        return (await pool.run(task, transfer ? { transferList: transfer } : {})) as Result;
      } catch (e) {
        throw errorFromData(e);
      }
    },
    destroy: () => pool.destroy(),
  };
}

/**
 * A worker's task function for {@link openTaskPool}: convkit's errors leave the thread as plain
 * data (a structured clone keeps an Error's message only) and come back as their class.
 */
export function taskWorker<Task, Result>(
  handler: (task: Task) => Result | Promise<Result>,
): (task: Task) => Promise<Result> {
  return async (task) => {
    try {
      return await handler(task);
    } catch (e) {
      throw errorToData(e);
    }
  };
}

/**
 * Runs `start` on each task with at most `window` results pending and yields the results in task
 * order. A task that fails surfaces at its place in the order (the results before it are yielded
 * first), through `taskError` if given: called then, it sees the caller's state as of the results
 * before (e.g. the lines read so far, to number the failing line in its file). The tasks after
 * it are let go. Errors of `tasks` itself pass through unchanged.
 */
export async function* inOrder<T, R>(
  tasks: Iterable<T> | AsyncIterable<T>,
  start: (task: T) => Promise<R>,
  window: number,
  taskError: (e: unknown) => unknown = (e) => e,
): AsyncIterable<R> {
  const pending: Promise<R>[] = [];
  const head = async () => {
    try {
      const next = pending.shift();
      if (next === undefined) throw new Error("inOrder: a result awaited with no task pending");
      return await next;
    } catch (e) {
      throw taskError(e);
    }
  };
  for await (const t of tasks) {
    const p = start(t);
    // Awaited in order below; a failure must not count as unhandled while earlier ones are awaited.
    p.catch(() => {});
    pending.push(p);
    while (pending.length >= Math.max(1, window)) yield await head();
  }
  while (pending.length) yield await head();
}
