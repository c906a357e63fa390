// The pool of segment's jobs: one worker file for passages and sentences tasks.
import { openTaskPool, type TaskPool } from "@convkit/pool";

/** Units per thread in flight: a thread that finished early stays busy while a long unit (a 1 MB document) holds the head. */
export const UNITS_AHEAD_PER_THREAD = 3;

/** A pool of `threads` segment workers; results come back as the worker moved them (not cloned). */
export function openSegmentPool<Task, Result>(threads: number): Promise<TaskPool<Task, Result>> {
  return openTaskPool<Task, Result>({
    worker: new URL("./worker.js", import.meta.url),
    threads,
    // A second task waits in each worker's queue: a finished task does not wait for the main
    // thread (busy writing, and sharing the cores) to hand out the next one.
    tasksPerWorker: 2,
    // A worker's tasks allocate fast (documents, tokens, sentences), so V8 grows its young
    // generation to the largest (node 24: 2 threads' job 436-448 MiB peak RSS; capped, 337-348),
    // though little of it survives a scavenge: no CPU cost was measurable at 2 threads.
    maxYoungGenerationSizeMb: 24,
  });
}
