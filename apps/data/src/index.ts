// convkit-data: fetch the real public ClariQ and Qulac files listed in data/sources.json.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { defineCommand, startProgress } from "@convkit/cli";
import { downloadFile, UsageError } from "@convkit/io";
import { sampleData } from "@convkit/sample-data";

/** One file of the download manifest. */
interface Source {
  dataset: string;
  repo: string;
  ref: string;
  path: string;
  to: string;
}

/** The `convkit-data fetch` command. */
export const fetchCommand = defineCommand({
  name: "convkit-data fetch",
  summary: "Download the real ClariQ and Qulac files (data/sources.json) for users with internet access.",
  options: [
    {
      name: "out",
      short: "o",
      type: "string",
      description: "folder to write into",
      default: "data/real",
      metavar: "DIR",
    },
    {
      name: "manifest",
      type: "string",
      description: "the list of files",
      default: sampleData("sources.json"),
      metavar: "FILE",
    },
    {
      name: "base-url",
      type: "string",
      description: "host prefix instead of the manifest's (a mirror)",
      metavar: "URL",
    },
    {
      name: "only",
      type: "list",
      description: "comma-separated datasets to fetch (clariq,qulac)",
      metavar: "LIST",
    },
  ],
  examples: [
    "convkit-data fetch --out data/real",
    "convkit-data fetch --only qulac --base-url http://127.0.0.1:8080",
  ],
  async run(o) {
    const manifest = JSON.parse(readFileSync(resolve(o.manifest), "utf8")) as {
      base: string;
      files: Source[];
    };
    const only = o.only ? new Set(o.only) : undefined;
    const files = manifest.files.filter((f) => !only || only.has(f.dataset));
    if (files.length === 0) throw new UsageError(`convkit-data fetch: no files for --only ${o.only}`);
    const base = (o["base-url"] ?? manifest.base).replace(/\/$/, "");
    const progress = startProgress("fetch", "bytes");
    for (const f of files) {
      const target = join(o.out, f.to);
      const n = await downloadFile(`${base}/${f.repo}/${f.ref}/${f.path}`, target, (k) => progress.tick(k));
      process.stderr.write(`${target} (${n} bytes)\n`);
    }
    progress.done();
    return 0;
  },
});
