// What "linear, not quadratic" tests measure: the bytes a reader joins (exact), or else CPU time,
// what this process spent, which other processes on the same cores (CI runs two test files at a
// time; a busy machine more) do not add to, as they add to a clock's time.
import { vi } from "vitest";

/** Milliseconds of CPU (user + system) this process spends in `fn`; the least of `runs` runs. */
export async function cpuMs(fn: () => unknown, runs = 3): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const before = process.cpuUsage();
    await fn();
    const { user, system } = process.cpuUsage(before);
    least = Math.min(least, (user + system) / 1000);
  }
  return least;
}

/**
 * Bytes `fn` joins through `Buffer.concat`: for a reader that must join a long line once, not once
 * per read. Counted, not timed: a ratio of times failed on loaded CI machines for linear code.
 */
export async function bytesConcatenated(fn: () => unknown): Promise<number> {
  const concat = Buffer.concat;
  let joined = 0;
  const spy = vi.spyOn(Buffer, "concat").mockImplementation((list, length) => {
    const out = concat(list, length);
    joined += out.length;
    return out;
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return joined;
}
