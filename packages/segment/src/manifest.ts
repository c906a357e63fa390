// What an input's outputs were made from, beside them (`OUT/x.manifest.json`): the run that
// meets it again redoes exactly what is not current, and says why in one line.
import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { writeAtomic } from "@convkit/io";
import { tryParseJson } from "@convkit/json";
import type { Codec } from "@convkit/parquet";
import type { PassageFormat } from "./encode.js";
import { IKAT, MSMARCO } from "./passages.js";

/** What an input is on disk: its size and modification time (ns, as a decimal string: a bigint). */
export interface InputStamp {
  size: number;
  mtimeNs: string;
}

/** The manifest of one input's outputs, written (atomically) only after all of them. */
export interface OutputManifest {
  /** The code that wrote the outputs: `convkit 0.1.0` (or the library's own name and version). */
  writer: string;
  input: InputStamp & { sha256: string };
  /** Everything that decides the outputs' bytes, as in effect (a preset's default spelled out). */
  options: Record<string, string | number | boolean>;
  /** Sizes of the outputs written: a missing or resized one is written again. */
  outputs: Partial<Record<PassageFormat, number>>;
  docs: number;
  passages: number;
}

let writerName: string | undefined;

/**
 * The writer recorded in manifests: the package.json beside this code's folder, i.e. `convkit`'s
 * in the bundle (dist/ is flat) and `@convkit/segment`'s in the workspace.
 */
export function manifestWriter(): string {
  if (writerName === undefined) {
    const own = tryParseJson(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    const pkg = own.ok ? own.value : undefined;
    const field = (k: string) =>
      typeof pkg === "object" && pkg !== null && k in pkg ? String((pkg as Record<string, unknown>)[k]) : "?";
    writerName = `${field("name")} ${field("version")}`;
  }
  return writerName;
}

/** The input's stamp, or undefined for what is not a regular file (stdin, a pipe): it cannot be recognised again. */
export async function stampOf(file: string): Promise<InputStamp | undefined> {
  if (file === "-") return undefined;
  const s = await stat(file, { bigint: true });
  return s.isFile() ? { size: Number(s.size), mtimeNs: String(s.mtimeNs) } : undefined;
}

/** sha256 of a file's bytes as they are on disk (compressed or not); `signal` stops the reading. */
export async function sha256OfFile(file: string, signal?: AbortSignal): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20, signal }))
    h.update(chunk as Buffer);
  return h.digest("hex");
}

/**
 * A spaCy pipeline folder's identity: sha256 over its files (paths, sizes, bytes), so the same
 * model anywhere is the same, and edited weights are not. A few MB: read once per run.
 */
export async function modelIdentity(dir: string): Promise<string> {
  const h = createHash("sha256");
  const walk = async (d: string): Promise<void> => {
    for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) {
        const bytes = await readFile(p);
        h.update(`${relative(dir, p)}\0${bytes.length}\0`).update(bytes);
      }
    }
  };
  await walk(dir);
  return h.digest("hex");
}

/** The options that decide the bytes of the outputs, defaults filled in (`--stride 5` with ikat is no change). */
export function outputOptions(o: {
  preset: "ikat" | "msmarco";
  overrides?: object;
  splitter: string;
  urlTitle?: boolean;
  offsets?: boolean;
  model?: string;
  formats?: readonly PassageFormat[];
  compression?: Codec;
}): OutputManifest["options"] {
  const s = { ...(o.preset === "ikat" ? IKAT : MSMARCO), ...o.overrides };
  return {
    preset: o.preset,
    window: s.window,
    stride: s.stride,
    maxLength: s.maxLength,
    idSeparator: s.idSeparator,
    flattenNewlines: s.flattenNewlines,
    stripSentences: s.stripSentences,
    urlTitle: o.urlTitle ?? false,
    splitter: o.splitter,
    // Recorded only when asked: outputs from before the option are current without it.
    ...(o.offsets ? { offsets: true } : {}),
    ...(o.model === undefined ? {} : { model: o.model }),
    // Only a run that writes Parquet records its compression (see COMPRESSION in assess).
    ...(o.formats?.includes("parquet") ? { [COMPRESSION]: o.compression ?? "zstd" } : {}),
  };
}

/**
 * The option that decides only the Parquet output's bytes: not compared with the others (a run
 * that writes no Parquet, or a manifest from before there was Parquet, is current); another one
 * rewrites the Parquet output alone.
 */
export const COMPRESSION = "compression";

const FORMATS = ["jsonl", "hashes", "trecweb", "parquet"] as const;

/** A manifest read back, checked field by field; anything else (absent, cut, an older layout) is undefined. */
export async function readManifest(path: string): Promise<OutputManifest | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  const parsed = tryParseJson(text);
  if (!parsed.ok) return undefined;
  const v = parsed.value;
  const obj = (x: unknown): Record<string, unknown> | undefined =>
    typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
  const m = obj(v);
  const input = obj(m?.input);
  const options = obj(m?.options);
  const outputs = obj(m?.outputs);
  if (!m || !input || !options || !outputs) return undefined;
  const count = (x: unknown) => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
  if (typeof m.writer !== "string" || !count(m.docs) || !count(m.passages)) return undefined;
  if (!count(input.size) || typeof input.mtimeNs !== "string" || typeof input.sha256 !== "string")
    return undefined;
  if (!Object.values(options).every((x) => ["string", "number", "boolean"].includes(typeof x)))
    return undefined;
  const sizes: OutputManifest["outputs"] = {};
  for (const [k, n] of Object.entries(outputs)) {
    const f = FORMATS.find((x) => x === k);
    if (f === undefined || !count(n)) return undefined;
    sizes[f] = n as number;
  }
  return {
    writer: m.writer,
    input: { size: input.size as number, mtimeNs: input.mtimeNs, sha256: input.sha256 },
    options: options as OutputManifest["options"],
    outputs: sizes,
    docs: m.docs as number,
    passages: m.passages as number,
  };
}

/** Writes a manifest whole or not at all (a kill leaves the one before, or none). */
export function writeManifest(path: string, m: OutputManifest): Promise<void> {
  // Keys in one order: two runs that did the same work write the same bytes.
  const ordered: OutputManifest = {
    writer: m.writer,
    input: { size: m.input.size, mtimeNs: m.input.mtimeNs, sha256: m.input.sha256 },
    options: m.options,
    outputs: Object.fromEntries(
      FORMATS.filter((f) => m.outputs[f] !== undefined).map((f) => [f, m.outputs[f]]),
    ),
    docs: m.docs,
    passages: m.passages,
  };
  return writeAtomic(path, (s) => s.write(`${JSON.stringify(ordered, null, 1)}\n`));
}

/** What a run does with an input whose outputs may exist. */
export interface Assessment {
  /** The formats to write (none: all current). */
  write: PassageFormat[];
  /** One line for stderr when something is redone or was only touched. */
  note?: string;
  /** The manifest the outputs kept have (when only some formats are written, or none). */
  kept?: OutputManifest;
}

/** An option's value in a message: a sha256 (a model's identity) by its first 12 digits. */
const shown = (v: string | number | boolean | undefined) =>
  typeof v === "string" && /^[0-9a-f]{64}$/.test(v) ? `${v.slice(0, 12)}…` : JSON.stringify(v ?? null);

/** `a, b and c` */
const listed = (xs: readonly string[]) =>
  xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;

/**
 * Compares what the outputs were made from (the manifest) with what they would be made from now.
 * The input is trusted unchanged when its size and mtime are the recorded ones (as make and rsync
 * do); a new mtime at the same size is settled by the content's sha256: only touched (copied,
 * checked out again) keeps the outputs and records the new mtime.
 */
export async function assess(
  a: {
    name: string;
    file: string;
    outputsName: string;
    paths: Record<PassageFormat, string>;
    stamp: InputStamp;
    writer: string;
    options: OutputManifest["options"];
    formats: readonly PassageFormat[];
  },
  prev: OutputManifest | undefined,
): Promise<Assessment> {
  const all = { write: [...a.formats] };
  const redo = (why: string): Assessment => ({
    ...all,
    note: `${a.name}: ${why}, redoing`,
  });
  if (!prev) {
    const existing = await Promise.all(
      Object.values(a.paths).map((p) =>
        stat(p).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (!existing.some(Boolean)) return all;
    return redo(
      `${a.outputsName} has no manifest (an older convkit's output, or a run killed before its end)`,
    );
  }
  if (prev.writer !== a.writer)
    return redo(`${a.outputsName} was written by ${prev.writer}, this is ${a.writer}`);
  const keys = [...new Set([...Object.keys(prev.options), ...Object.keys(a.options)])].filter(
    (k) => k !== COMPRESSION,
  );
  const changed = keys.filter((k) => prev.options[k] !== a.options[k]);
  if (changed.length > 0)
    return redo(
      `${a.outputsName} was written with other options (${changed
        .map((k) => `${k} ${shown(prev.options[k])}, now ${shown(a.options[k])}`)
        .join("; ")})`,
    );
  if (prev.input.size !== a.stamp.size) return redo(`changed since ${a.outputsName} was written (size)`);
  let note: string | undefined;
  let kept = prev;
  if (prev.input.mtimeNs !== a.stamp.mtimeNs) {
    if ((await sha256OfFile(a.file)) !== prev.input.sha256)
      return redo(`changed since ${a.outputsName} was written (mtime and content)`);
    note = `${a.name}: touched since ${a.outputsName} was written, the same content (sha256): kept`;
    kept = { ...prev, input: { ...prev.input, mtimeNs: a.stamp.mtimeNs } };
  }
  const missing: string[] = [];
  const write: PassageFormat[] = [];
  for (const f of a.formats) {
    const size = await stat(a.paths[f]).then(
      (s) => s.size,
      () => undefined,
    );
    if (f === "parquet" && size !== undefined && prev.options[COMPRESSION] !== a.options[COMPRESSION]) {
      // Its size is no witness of its codec: another one could give the same size.
      write.push(f);
      missing.push(
        `${a.paths[f]} compressed ${shown(prev.options[COMPRESSION])}, now ${shown(a.options[COMPRESSION])}`,
      );
      continue;
    }
    if (size !== undefined && size === prev.outputs[f]) continue;
    write.push(f);
    missing.push(
      `${a.paths[f]} ${prev.outputs[f] === undefined ? "not written yet" : size === undefined ? "gone" : "changed since written"}`,
    );
  }
  if (write.length > 0) note = `${a.name}: ${listed(missing)}: writing ${write.length > 1 ? "them" : "it"}`;
  return { write, note, kept };
}
