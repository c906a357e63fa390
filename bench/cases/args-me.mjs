// Bench case: stream an args.me corpus file, counting arguments and premise characters.
import { statSync } from "node:fs";
import { readArgsMe } from "@convkit/formats";
import { report } from "./report.mjs";

const t0 = performance.now();
let n = 0;
let chars = 0;
for await (const b of readArgsMe(process.argv[2])) {
  n += b.length;
  for (const a of b) chars += a.premises[0]?.text.length ?? 0;
}
report({
  records: n,
  bytes: statSync(process.argv[2]).size,
  chars,
  seconds: (performance.now() - t0) / 1000,
});
