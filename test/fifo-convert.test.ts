// Issue #39, item 8: `convert` on a named FIFO without --format hung (the format was sniffed, then
// the FIFO opened again); `convert <(cat x.qrel)` was a false exit 2 (the reader started after the
// head detection took). Both read the stream once now, its head replayed, like stdin.
import { execFileSync, spawnSync } from "node:child_process";
import { createWriteStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { cliBin, REPO, runCli, runCliAsync, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const d = tempDir("fifo-convert-");
// Far more than one read of the head (256 KiB), so the reader needs what detection did not take.
const qrels = Array.from({ length: 40_000 }, (_, i) => `${1 + (i % 50)} 0 doc-${i} ${i % 3}`).join("\n");
const file = join(d, "x.qrel");
writeFileSync(file, `${qrels}\n`);

describe("convert on a stream given by path, without --format", () => {
  const expected = runCli("convert", [file, "-o", "-"]);

  it("a named FIFO is read once (plain and gzip): the file's output, exit 0", async () => {
    expect(expected.code, expected.stderr).toBe(0);
    for (const [name, bytes] of [
      ["fifo", Buffer.from(`${qrels}\n`)],
      ["fifo-gz", gzipSync(`${qrels}\n`)],
    ] as const) {
      const f = join(d, name);
      execFileSync("mkfifo", [f]);
      const writer = createWriteStream(f);
      writer.on("error", () => {});
      writer.end(bytes);
      const r = await runCliAsync("convert", [f, "-o", "-"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(expected.stdout);
    }
  }, 30_000);

  it("a shell's <(cat FILE) gives the file's output, exit 0", () => {
    const r = spawnSync(
      "bash",
      ["-c", `"${process.execPath}" "${cliBin("convert")}" <(cat "${file}") -o -`],
      {
        cwd: REPO,
        maxBuffer: 1 << 28,
        timeout: 30_000,
      },
    );
    expect(r.status, r.stderr.toString()).toBe(0);
    expect(r.stdout.toString()).toBe(expected.stdout);
  });
});
