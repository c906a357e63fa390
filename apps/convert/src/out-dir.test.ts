// convkit-convert outputs: two inputs never share an output name, --gzip never silently ignored.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

it("inputs of the same name in two folders: one line, exit 2, nothing written", () => {
  const dir = tempDir();
  for (const sub of ["a", "b"]) {
    mkdirSync(join(dir, sub));
    writeFileSync(join(dir, sub, "run.txt"), `1 Q0 d${sub} 1 1.5 tag\n`);
  }
  const out = join(dir, "out");
  const r = runCli("convert", ["--out-dir", out, join(dir, "a", "run.txt"), join(dir, "b", "run.txt")]);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/two inputs would both be written to .*run\.txt\.jsonl/);
  expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
});

it("--gzip with stdout is a usage error (it would write text where gzip was asked for)", () => {
  const dir = tempDir();
  writeFileSync(join(dir, "run.txt"), "1 Q0 d1 1 1.5 tag\n");
  const r = runCli("convert", ["--gzip", join(dir, "run.txt")]);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/--gzip writes files/);
  expect(r.stdout).toBe("");
});
