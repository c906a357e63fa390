// Memory of a Parquet output (issue 41): 10 million generated passages written with segment's
// table schema stay under a fixed bound (300 MiB peak RSS) that does not grow with the input
// (1 million against 10 million). Measured in a child process: process.resourceUsage().maxRSS.
import { execFileSync } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { REPO, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

/**
 * The child: passages as `segment run` makes them (id `docN:k`, 20-40 words of text, a url on
 * most) streamed in batches of 1,000 through writeParquet with PASSAGE_SCHEMA, the built
 * packages (what the CLI runs). Prints rows, peak RSS (MiB) and seconds.
 */
const CHILD = `
import { PASSAGE_SCHEMA } from "@convkit/formats";
import { writeParquet } from "@convkit/parquet";
const [n, target] = [Number(process.argv.at(-2)), process.argv.at(-1)];
const WORDS = "the river garden store water summer open sunday city north light stone field market bridge house green winter road school page text about where when".split(" ");
let s = 7;
const rnd = (k) => {
  s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
  return Math.floor((s / 2 ** 32) * k);
};
function* batches() {
  for (let i = 0; i < n; ) {
    const b = [];
    for (let k = 0; k < 1000 && i < n; k++, i++) {
      // Flat strings, as segment's passages are (joined sentences), not ropes of += pieces.
      const words = [];
      for (let w = 20 + rnd(20); w > 0; w--) words.push(WORDS[rnd(WORDS.length)]);
      const contents = words.join(" ");
      b.push({ id: "doc" + (i >> 3) + ":" + (i & 7), contents, ...(i % 5 ? { url: "http://example.org/" + (i >> 3) } : {}) });
    }
    yield b;
  }
}
const t0 = performance.now();
const rows = await writeParquet(target, PASSAGE_SCHEMA, batches());
process.stdout.write(JSON.stringify({ rows, maxRssMiB: process.resourceUsage().maxRSS / 1024, secs: (performance.now() - t0) / 1000 }));
`;

function writePassages(n: number): { rows: number; maxRssMiB: number; secs: number; bytes: number } {
  const dir = tempDir("parquet-memory-");
  const target = join(dir, "passages.parquet");
  try {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", CHILD, String(n), target], {
      cwd: REPO,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    return {
      ...(JSON.parse(out) as { rows: number; maxRssMiB: number; secs: number }),
      bytes: statSync(target).size,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it("10 million passages: peak RSS under 300 MiB, and not more than 1 million's (+32 MiB)", {
  timeout: 3_600_000,
}, () => {
  const small = writePassages(1_000_000);
  const large = writePassages(10_000_000);
  // Seen by the report of the run (numbers for BENCHMARKS and the writer's work).
  console.log(`parquet memory: 1M ${JSON.stringify(small)}; 10M ${JSON.stringify(large)}`);
  expect([small.rows, large.rows]).toEqual([1_000_000, 10_000_000]);
  expect(large.maxRssMiB).toBeLessThan(300);
  expect(large.maxRssMiB - small.maxRssMiB).toBeLessThan(32);
});
