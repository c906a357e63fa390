// convkit-ikat build-db: the SQLite passage-id database from the organizers' hash TSV.
import { defineCommand, startProgress } from "@convkit/cli";
import { buildPassageDb } from "@convkit/ikat";
import { onePositional } from "./positional.js";

/** `convkit-ikat build-db`. */
export const buildDbCommand = defineCommand({
  name: "convkit-ikat build-db",
  summary:
    "Build the SQLite passage-id database from a hash TSV (docid<TAB>k<TAB>md5), streaming, one transaction per 100,000 rows.",
  positionals: { name: "HASHES.tsv", description: "the hash TSV (any compression)", min: 1, max: 1 },
  options: [
    {
      name: "db",
      type: "string",
      metavar: "FILE",
      required: true,
      description: "database file (created or extended)",
    },
  ],
  async run(o, args) {
    const file = onePositional(args, "HASHES.tsv");
    const progress = startProgress("build-db", "rows");
    let last = 0;
    const t0 = performance.now();
    const n = await buildPassageDb(file, o.db, (rows) => {
      progress.tick(rows - last);
      last = rows;
    });
    progress.done();
    const secs = (performance.now() - t0) / 1000;
    process.stderr.write(`${n} rows in ${secs.toFixed(2)} s (${Math.round(n / secs)} rows/s)\n`);
    return 0;
  },
});
