// Every golden case of the original ClariQ evaluation tool: stdout byte for byte, out_file value for value.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { clariqDataWithDicts, runCliAsync, SHARED, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

interface Golden {
  command: string[];
  run_file: string;
  exit_code: number;
  stdout: string;
  out_file?: Record<string, Record<string, number>>;
}

describe("ClariQ eval tool goldens (shared)", () => {
  const dir = join(SHARED, "golden", "clariq-eval", "expected");
  const cases = existsSync(dir) ? readdirSync(dir).sort() : [];
  const data = existsSync(dir) ? clariqDataWithDicts() : "";
  it("has the golden cases", () => {
    expect(cases.length).toBe(21);
  });
  for (const name of cases) {
    it(name, async () => {
      const raw = readFileSync(join(dir, name));
      const g: Golden = JSON.parse((name.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8"));
      const run = g.run_file.startsWith("data/")
        ? join(SHARED, g.run_file)
        : join(SHARED, "golden", "clariq-eval", g.run_file);
      const out = join(tempDir(), "out.json");
      const r = await runCliAsync("clariq-eval", [
        ...g.command.slice(1),
        "--data_dir",
        data,
        "--run_file",
        run,
        "--out_file",
        out,
      ]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(g.exit_code);
      expect(r.stdout).toBe(g.stdout);
      if (g.out_file) expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(g.out_file);
      else expect(existsSync(out)).toBe(false);
    });
  }
});
