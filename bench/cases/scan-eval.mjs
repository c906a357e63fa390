// Bench case: stream an eval dict (tar.gz included when the path says so) without building it.
import { scanEvalDict } from "@convkit/formats";
import { report } from "./report.mjs";

const t0 = performance.now();
let n = 0;
await scanEvalDict(process.argv[2], () => {
  n++;
});
report({ records: n, seconds: (performance.now() - t0) / 1000 });
