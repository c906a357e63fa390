// The stdin route of a CLI against its file route: the same bytes piped plain, gzipped and bzipped.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { expect } from "vitest";
import { type CliResult, runCliAsync } from "./cli.js";

/** bzip2 of some bytes, by the system's bzip2 (what users have). */
export function bzip2(bytes: Buffer): Buffer {
  const r = spawnSync("bzip2", ["-c"], { input: bytes, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`bzip2: ${r.stderr}`);
  return r.stdout;
}

/** Every way a file's bytes can come on stdin. */
export const ENCODINGS: [name: string, encode: (b: Buffer) => Buffer][] = [
  ["plain", (b) => b],
  ["gzip", (b) => gzipSync(b)],
  ["bzip2", bzip2],
];

/** The file route, then each stdin route; all stdouts must be equal and the run a success. */
export async function expectStdinLikeFile(
  app: string,
  argsWith: (input: string) => string[],
  file: string,
  encodings = ENCODINGS,
): Promise<void> {
  const bytes = readFileSync(file);
  const runs: Promise<CliResult>[] = [runCliAsync(app, argsWith(file))];
  for (const [, encode] of encodings) runs.push(runCliAsync(app, argsWith("-"), encode(bytes)));
  const [byFile, ...byStdin] = await Promise.all(runs);
  expect(byFile!.code, byFile!.stderr).toBe(0);
  expect(byFile!.stdout.length).toBeGreaterThan(0);
  byStdin.forEach((r, i) => {
    expect(r.code, `${encodings[i]![0]}: ${r.stderr}`).toBe(0);
    expect(r.stdout, encodings[i]![0]).toBe(byFile!.stdout);
  });
}
