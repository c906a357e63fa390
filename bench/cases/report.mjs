// What every bench case prints: one JSON line with its counts, time and peak RSS.
export function report(fields) {
  process.stdout.write(
    `${JSON.stringify({ ...fields, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
}
