// The piscina pool of segment's jobs: one worker file for passages and sentences tasks.

/** A pool of `threads` workers; results come back as the worker moved them (not cloned). */
export async function openPool<Task, Result>(threads: number) {
  const { Piscina } = await import("piscina");
  const pool = new Piscina({
    filename: new URL("./worker.js", import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    // A second task waits in each worker's queue: a finished task does not wait for the main
    // thread (busy writing, and sharing the cores) to hand out the next one.
    concurrentTasksPerWorker: 2,
    recordTiming: false,
  });
  return {
    run: (t: Task, transfer: ArrayBuffer[]) => pool.run(t, { transferList: transfer }) as Promise<Result>,
    destroy: () => pool.destroy(),
  };
}
