// Bench case: read ClariQ train/dev/test_with_labels TSVs into typed rows.
import { readClariqRows } from "@convkit/formats";
import { report } from "./report.mjs";

const files = process.argv.slice(2);
const t0 = performance.now();
let n = 0;
for (const f of files) for await (const b of readClariqRows(f)) n += b.length;
report({ records: n, seconds: (performance.now() - t0) / 1000 });
