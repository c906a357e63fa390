// Writes the planned topics of the real ClariQ data as JSON, for the Python peer generator.
import { writeFileSync } from "node:fs";
import { planClariqSets, splitPlans } from "@convkit/gen-synthetic";

const [dataDir, qulac, out, ...splits] = process.argv.slice(2);
const sets = await planClariqSets(dataDir, qulac);
const topics = splits
  .flatMap((s) => splitPlans(sets, s))
  .map((p) => ({ ...p, numbers: sets.numbers.get(p.topic_id) }));
writeFileSync(out, JSON.stringify(topics));
