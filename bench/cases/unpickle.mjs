// Bench case: unpickle an eval dict (tar.gz included when the path says so) and count its values, as the peer does.
import { readPickleFile } from "@convkit/pickle";
import { report } from "./report.mjs";

const t0 = performance.now();
const d = await readPickleFile(process.argv[2]);
let n = 0;
for (const m of d.values()) for (const c of m.values()) n += c.size;
report({ records: n, seconds: (performance.now() - t0) / 1000 });
