// Bench case: read qulac.json into rows.
import { readQulacJson } from "@convkit/formats";
import { report } from "./report.mjs";

const t0 = performance.now();
const rows = await readQulacJson(process.argv[2]);
report({ records: rows.length, seconds: (performance.now() - t0) / 1000 });
