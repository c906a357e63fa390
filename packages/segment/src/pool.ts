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
    // A worker's tasks allocate fast (documents, tokens, sentences) and little of it outlives a
    // scavenge, but V8 grows the young generation whenever the survivors add up to its size, so
    // in a long run every worker's reaches the largest (32 MiB on node 20, 64 on node 24), all of
    // it resident. The 2-thread spaCy job's peak RSS, runs in turn: node 24 436-448 MiB uncapped,
    // 328-336 at 24, 314-317 at 12; node 20 303-315 at 24, 287-300 at 12. CPU the same within noise.
    maxYoungGenerationSizeMb: 12,
  });
}
