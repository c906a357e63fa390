// A job's progress, thinned before it goes to Redis: a unit's batches can be hundreds a second,
// and every update is a Redis call on the worker and an event for each watcher to read.

/** Least time between two progress updates of a job sent to Redis. */
export const PROGRESS_MS = 250;

/** Progress so far in a job: items and bytes. */
export interface ProgressValue {
  items: number;
  bytes: number;
}

/**
 * `report` sends at most one update every `intervalMs` (the first at once); the last one held
 * back is what `flush` returns, for the job's end, so watchers' totals come out whole.
 */
export function throttleProgress(
  send: (p: ProgressValue) => void,
  intervalMs = PROGRESS_MS,
  now: () => number = () => performance.now(),
): { report(items: number, bytes: number): void; flush(): ProgressValue | undefined } {
  let last = Number.NEGATIVE_INFINITY;
  let heldBack: ProgressValue | undefined;
  return {
    report(items, bytes) {
      const t = now();
      if (t - last < intervalMs) {
        heldBack = { items, bytes };
        return;
      }
      last = t;
      heldBack = undefined;
      send({ items, bytes });
    },
    flush() {
      const h = heldBack;
      heldBack = undefined;
      return h;
    },
  };
}
