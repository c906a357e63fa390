// CPU time for "linear, not quadratic" tests: what this process spent, which other processes on
// the same cores (CI runs two test files at a time; a busy machine more) do not add to, as they
// add to a clock's time.

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
