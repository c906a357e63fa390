// Run twice, one file after the other, by temp-root.test.ts in a vitest of its own: a test file that leaves temporary folders behind (its own and a child process's) and reports which other files' folders it sees.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { test } from "vitest";

test("leaves its temporary folders behind", () => {
  const own = mkdtempSync(join(tmpdir(), "fixture-own-"));
  writeFileSync(join(own, "data"), "x");
  const makeOne =
    "process.stdout.write(require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'fixture-child-')))";
  const child = spawnSync(process.execPath, ["-e", makeOne]).stdout.toString();
  const mine = basename(tmpdir());
  const others = readdirSync(dirname(tmpdir())).filter((n) => n.startsWith("file-") && n !== mine);
  appendFileSync(process.env.CONVKIT_FIXTURE_REPORT ?? "", `${JSON.stringify({ own, child, others })}\n`);
});
