// Where the real data and goldens live for tests: $CONVKIT_SHARED, else ../shared beside the repo (REPO: the repo root, from src/ or dist/).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const SHARED = resolve(REPO, process.env.CONVKIT_SHARED ?? "../shared");

/**
 * A path inside shared/; fails loudly when it is missing. Tests that call it declare
 * `requires("shared")` (requires.ts), which skips them when there is no shared/ folder (fails them
 * under CI), and call it only from beforeAll hooks and tests, never while their file is collected.
 */
export function shared(...parts: string[]): string {
  const p = join(SHARED, ...parts);
  if (!existsSync(p)) throw new Error(`needs ${p}: set CONVKIT_SHARED to the shared/ folder`);
  return p;
}

/** A golden file of a case folder, `NAME.gz` unpacked or `NAME` as it is; null where neither exists. */
export function readGolden(dir: string, name: string): Buffer | null {
  const gz = join(dir, `${name}.gz`);
  if (existsSync(gz)) return gunzipSync(readFileSync(gz));
  return existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : null;
}

/** A fresh temp folder. */
export function tempDir(prefix = "convkit-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs python3 with a script and stdin, returning stdout (declare `requires("python3")`). */
export function python(script: string, input?: string | Buffer, args: string[] = []): string {
  return execFileSync("python3", ["-c", script, ...args], { input, maxBuffer: 1 << 30 }).toString("utf8");
}

/** A folder with the real ClariQ files and the golden eval dicts side by side, as the evaluator reads them. */
export function clariqDataWithDicts(): string {
  const dir = tempDir("clariq-data-");
  for (const f of readdirSync(shared("data", "clariq")))
    symlinkSync(join(SHARED, "data", "clariq", f), join(dir, f));
  for (const f of readdirSync(shared("golden", "clariq-eval", "eval_dicts")))
    symlinkSync(join(SHARED, "golden", "clariq-eval", "eval_dicts", f), join(dir, f));
  return dir;
}
