// What every bench case prints: one JSON line with its counts, time and peak RSS (this process's,
// unless the case measured the processes it ran and gives `maxRssMiB` itself).
export function report(fields) {
  process.stdout.write(
    `${JSON.stringify({ maxRssMiB: process.resourceUsage().maxRSS / 1024, ...fields })}\n`,
  );
}
