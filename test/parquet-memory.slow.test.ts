// Memory of a Parquet output (issue 41): 10 million generated passages written with segment's
// table schema stay under a fixed bound (300 MiB peak RSS) that does not grow with the input, on
// every supported Node (V8 sizes its heap differently on each: Node 24's young generation alone
// grows to 128 MiB under this load, Node 20's to 32).
// Measured in a child process: its peak RSS (process.resourceUsage().maxRSS) at the end and at half
// the rows (by then the peak has settled: V8's heap has grown to its size for the load), and what
// it holds after a full collection (gc()) at 1 million rows and at 10 million: the live heap and
// buffers, which, unlike RSS (V8 grows its heap as it sees fit, more so on a busy machine), depend
// only on what the writer keeps, so the same on every run.
import { execFileSync } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { OTHER_NODE_LINES, otherNode, REPO, requires, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

/**
 * The child: passages as `segment run` makes them (id `docN:k`, 20-40 words of text, a url on
 * most) streamed in batches of 1,000 through writeParquet with PASSAGE_SCHEMA, the built
 * packages (what the CLI runs). Prints rows, peak RSS (MiB), seconds, the peak RSS so far at half
 * the rows and at the last batch, and the live memory (MiB) after a full collection when the
 * generator is at row 1,000,000 and at its last batch.
 */
const CHILD = `
import { PASSAGE_SCHEMA } from "@convkit/formats";
import { writeParquet } from "@convkit/parquet";
const [n, target] = [Number(process.argv.at(-2)), process.argv.at(-1)];
const WORDS = "the river garden store water summer open sunday city north light stone field market bridge house green winter road school page text about where when".split(" ");
let s = 7;
const live = [];
const peaks = [];
const liveMiB = () => {
  // Twice: V8 frees dead ArrayBuffers' memory on a concurrent sweeper that a loaded machine delays,
  // and the next full collection first waits for it; one gc() can still count the last pages' buffers.
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external) / 2 ** 20;
};
const rnd = (k) => {
  s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
  return Math.floor((s / 2 ** 32) * k);
};
function* batches() {
  for (let i = 0; i < n; ) {
    if (i === n / 2 || i === n - 1000) peaks.push(process.resourceUsage().maxRSS / 1024);
    if (i === 1_000_000 || i === n - 1000) live.push(liveMiB());
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
process.stdout.write(JSON.stringify({ rows, maxRssMiB: process.resourceUsage().maxRSS / 1024, secs: (performance.now() - t0) / 1000, peaks, live }));
`;

interface Written {
  rows: number;
  maxRssMiB: number;
  secs: number;
  /** Peak RSS so far (MiB) at half the rows and at the last batch. */
  peaks: number[];
  /** MiB held after gc() at row 1,000,000 and at the last batch. */
  live: number[];
  bytes: number;
}

function writePassages(node: string, n: number): Written {
  const dir = tempDir("parquet-memory-");
  const target = join(dir, "passages.parquet");
  try {
    const out = execFileSync(node, ["--expose-gc", "--input-type=module", "-e", CHILD, String(n), target], {
      cwd: REPO,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    return {
      ...(JSON.parse(out) as Omit<Written, "bytes">),
      bytes: statSync(target).size,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function expectBounded(node: string): void {
  const run = writePassages(node, 10_000_000);
  // Seen by the report of the run (numbers for BENCHMARKS and the writer's work).
  console.log(`parquet memory: 10M on ${node}: ${JSON.stringify(run)}`);
  expect(run.rows).toBe(10_000_000);
  expect(run.maxRssMiB).toBeLessThan(300);
  const [atHalf, atEnd] = run.peaks as [number, number];
  expect(run.peaks).toHaveLength(2);
  expect(atEnd - atHalf).toBeLessThan(24);
  const [liveAtMillion, liveAtEnd] = run.live as [number, number];
  expect(run.live).toHaveLength(2);
  expect(liveAtEnd - liveAtMillion).toBeLessThan(16);
}

const TITLE =
  "10 million passages: peak RSS under 300 MiB, and at row 10 million what it was at row 5 million (+24 MiB); what the writer holds at row 10 million is what it held at row 1 million (+16 MiB)";

it(`${TITLE}, on this Node (${process.version})`, { timeout: 3_600_000 }, () =>
  expectBounded(process.execPath),
);

requires("other-nodes").describe(TITLE, () => {
  for (const line of OTHER_NODE_LINES) it(`on Node ${line}`, () => expectBounded(otherNode(line)), 3_600_000);
});
