// convkit-data: fetch the real public ClariQ and Qulac files listed in data/sources.json.
import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { defineCommand, startProgress } from "@convkit/cli";
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  downloadFile,
  InputError,
  UsageError,
} from "@convkit/io";
import { Fields, inputMismatch, parseJsonText } from "@convkit/json";
import { sampleData } from "@convkit/sample-data";

/** One file of the download manifest. */
interface Source {
  dataset: string;
  repo: string;
  ref: string;
  path: string;
  to: string;
}

/** The download manifest: a host prefix and the files. */
interface Manifest {
  base: string;
  files: Source[];
}

/**
 * Whether `to` names a file strictly inside the output folder, wherever that is: not the folder
 * itself (`.`, `a/..`: the download's temp file would be written beside it, above --out), nor a
 * folder (`a/`), nor outside (`..`, `/x`). Checked lexically, against a stand-in root.
 */
function isInside(to: string): boolean {
  if (to === "" || isAbsolute(to) || /[\\/]$/.test(to)) return false;
  const root = resolve("/", "convkit-out");
  const rel = relative(root, resolve(root, to));
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * The manifest read and checked field by field (a user may pass their own): a mismatch is bad
 * input, one line naming the file and the field.
 */
async function readManifest(file: string): Promise<Manifest> {
  const text = await readFile(resolve(file), "utf8").catch(() => {
    throw new InputError(file, {}, "a manifest file", "nothing readable there");
  });
  const mismatch = inputMismatch(file);
  const m = Fields.of(parseJsonText(file, text), mismatch);
  const files = m.objects("files").map((f): Source => {
    const to = f.string("to");
    if (!isInside(to)) throw f.fail("to", "a path inside the output folder", to);
    return {
      dataset: f.string("dataset"),
      repo: f.string("repo"),
      ref: f.string("ref"),
      path: f.string("path"),
      to,
    };
  });
  return { base: m.string("base"), files };
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
    {
      name: "connect-timeout",
      type: "number",
      min: 0.001,
      default: DEFAULT_CONNECT_TIMEOUT_MS / 1000,
      metavar: "S",
      description: "seconds to wait for a server's response (connecting included)",
    },
    {
      name: "idle-timeout",
      type: "number",
      min: 0.001,
      default: DEFAULT_IDLE_TIMEOUT_MS / 1000,
      metavar: "S",
      description: "seconds to wait for more of a file while it downloads",
    },
  ],
  examples: [
    "convkit-data fetch --out data/real",
    "convkit-data fetch --only qulac --base-url http://127.0.0.1:8080",
  ],
  async run(o) {
    const manifest = await readManifest(o.manifest);
    const only = o.only ? new Set(o.only) : undefined;
    const files = manifest.files.filter((f) => !only || only.has(f.dataset));
    if (files.length === 0) throw new UsageError(`convkit-data fetch: no files for --only ${o.only}`);
    const base = (o["base-url"] ?? manifest.base).replace(/\/$/, "");
    const progress = startProgress("fetch", "bytes");
    for (const f of files) {
      const target = join(o.out, f.to);
      const n = await downloadFile(`${base}/${f.repo}/${f.ref}/${f.path}`, target, (k) => progress.tick(k), {
        connectMs: o["connect-timeout"] * 1000,
        idleMs: o["idle-timeout"] * 1000,
      });
      process.stderr.write(`${target} (${n} bytes)\n`);
    }
    progress.done();
    return 0;
  },
});
