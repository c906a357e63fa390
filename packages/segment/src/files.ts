// The files of a segmentation: its inputs (folders walked), each input's outputs and manifest,
// and the temp files a killed writer leaves.
import { readdir, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { InputError, isDeadTemp, UsageError } from "@convkit/io";
import type { PassageFormat } from "./encode.js";

const INPUT = /\.(json|jsonl|trecweb|txt)(\.(gz|bz2))?$/;

/**
 * Input files: given files as they are, folders walked (sorted by path, byte order), each with the
 * root it is relative to. Anything given that is not a folder is read as a file: a FIFO or
 * `<(zcat x.gz)` too.
 */
export async function listInputs(inputs: readonly string[]): Promise<{ file: string; rel: string }[]> {
  const out: { file: string; rel: string }[] = [];
  for (const input of inputs) {
    if (input === "-") {
      out.push({ file: "-", rel: "stdin" });
      continue;
    }
    const s = await stat(input).catch(() => undefined);
    if (!s) throw new InputError(input, {}, "an input file or folder", "nothing there");
    if (!s.isDirectory()) {
      out.push({ file: input, rel: input.replace(/^[\s\S]*[\\/]/, "") });
      continue;
    }
    const walk = async (dir: string): Promise<void> => {
      for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
        a.name < b.name ? -1 : 1,
      )) {
        const p = join(dir, e.name);
        if (e.isDirectory()) await walk(p);
        else if (INPUT.test(e.name)) out.push({ file: p, rel: relative(input, p) });
      }
    };
    await walk(input);
  }
  return out;
}

/**
 * Two inputs whose outputs would be the same files (`x.json` and `x.json.gz`) are refused: the
 * second would overwrite the first's passages. Checked on the whole list, before sharding.
 */
export function refuseSharedOutputs(inputs: readonly { file: string; rel: string }[]): void {
  const seen = new Map<string, string>();
  for (const { file, rel } of inputs) {
    const base = rel.replace(INPUT, "");
    const other = seen.get(base);
    if (other !== undefined)
      throw new UsageError(
        `${other} and ${file} would write the same outputs (${base}.*): segment them into different --out folders`,
      );
    seen.set(base, file);
  }
}

/** Where an input's outputs go: `OUT/rel-without-extension.{jsonl,parquet,hashes.tsv,trecweb}`, and their manifest. */
export interface OutputFiles {
  /** `OUT/rel-without-extension.*`, as messages name the set. */
  name: string;
  paths: Record<PassageFormat, string>;
  manifest: string;
}

export function outputFiles(out: string, rel: string): OutputFiles {
  const base = join(out, rel.replace(INPUT, ""));
  return {
    name: `${base}.*`,
    paths: {
      jsonl: `${base}.jsonl`,
      parquet: `${base}.parquet`,
      hashes: `${base}.hashes.tsv`,
      trecweb: `${base}.trecweb`,
    },
    manifest: `${base}.manifest.json`,
  };
}

/** Removes a file that may not be there. */
export async function removeIfThere(path: string): Promise<void> {
  await unlink(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== "ENOENT") throw e;
  });
}

/** Removes temp files of writers that died (their process is gone): what a killed run leaves. */
export async function removeDeadTemps(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await removeDeadTemps(p);
    if (e.isFile() && isDeadTemp(e.name)) await unlink(p).catch(() => {});
  }
}

/**
 * Removes the temp files of these outputs, whoever left them: a queued unit taken again after its
 * worker died (on any machine: a process id says nothing across machines). Only the unit's own
 * outputs: the folder is shared with units other machines are writing.
 */
export async function removeUnitTemps(outputs: readonly string[]): Promise<void> {
  for (const out of outputs) {
    const dir = dirname(out);
    // writeAtomic's temp name: `.NAME.PID.RANDOM.tmp` (`.x.jsonl.…` only, never `.x.jsonl.jsonl.…`).
    const own = new RegExp(
      `^\\.${basename(out).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.\\d+\\.[a-z0-9]+\\.tmp$`,
    );
    for (const name of await readdir(dir).catch(() => [] as string[]))
      if (own.test(name)) await unlink(join(dir, name)).catch(() => {});
  }
}
