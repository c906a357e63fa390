// Every package README's ```ts example, run: each is compiled (esbuild, types dropped) into a
// module beside its package (so `@convkit/<name>` resolves as a user's would, to the built dist),
// and all of them run in ONE Node process, in a folder holding the files the examples name
// (the bundled sample data under those names). An example that needs what a test cannot give
// (a Redis, a server that runs until stopped, a spaCy model, a generated module) is listed with
// the reason; the others must run, exit 0 and print what their README says.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { REPO, tempDir } from "@convkit/test-helpers";
import { transformSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

/** Examples not run here, and why. */
const NOT_RUN: Record<string, string> = {
  queue: "needs a Redis (test/queue.slow.test.ts runs the queue)",
  explore: "serves until stopped (the explore tests run the server)",
  spacy: "needs a spaCy model folder",
  wasm: "imports a module its build generates",
};

/** What a run example must print (a piece of its output), as its README says. */
const PRINTS: Record<string, string> = {
  pycompat: "Int32Array(4) [ 1, 3, 2, 0 ]\n0.12\n",
  cli: "hello, world\n",
  pool: "[ 1, 4, 9 ]\n",
  retrieval: "Float64Array(3) [ 0, 0.5108256237659907, 0 ] [ 1 ]\n",
  pickle: "Map(2) { 'a' => 1, 'b' => 2.5 }\n",
  parquet: "[ { id: 'd1-0', contents: 'text', start: 0 } ]\n",
  "synthetic-plan": "1-2-3-4-1 { topic: 1, facet: 2, history: [ 3 ], question: 4, flag: 1 }\n",
  "trec-eval#0": "map                   \tall\t",
  "trec-eval#1": "map                   \tall\t",
};

const examples = readdirSync(join(REPO, "packages")).flatMap((pkg) => {
  let text: string;
  try {
    text = readFileSync(join(REPO, "packages", pkg, "README.md"), "utf8");
  } catch {
    return [];
  }
  const blocks = [...text.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
  return blocks.map((code, i) => ({ pkg, name: blocks.length > 1 ? `${pkg}#${i}` : pkg, code }));
});

/** The folder the examples run in: the files they name, from the bundled samples and fixtures. */
function exampleFolder(): string {
  const dir = tempDir("convkit-readme-");
  const put = (to: string, from: string, gzip = false) => {
    mkdirSync(join(dir, to, ".."), { recursive: true });
    if (gzip) writeFileSync(join(dir, to), gzipSync(readFileSync(join(REPO, from))));
    else copyFileSync(join(REPO, from), join(dir, to));
  };
  put("data/question_bank.tsv", "data/clariq/question_bank.sample.tsv");
  for (const split of ["train", "dev", "test"])
    put(`ClariQ/data/${split}.tsv`, `data/clariq/${split}.sample.tsv`);
  put("ClariQ/data/question_bank.tsv", "data/clariq/question_bank.sample.tsv");
  // The sample run's lines of the dev sample's topics (the run also ranks other splits' topics).
  const dev = new Set(
    readFileSync(join(REPO, "data/clariq/dev.sample.tsv"), "utf8")
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t")[0]),
  );
  const run = readFileSync(join(REPO, "data/clariq/runs/question_ranking.run"), "utf8").split("\n");
  mkdirSync(join(dir, "ClariQ/sample_runs"), { recursive: true });
  writeFileSync(
    join(dir, "ClariQ/sample_runs/dev_bm25"),
    `${run.filter((l) => dev.has(l.split(" ")[0])).join("\n")}\n`,
  );
  put("qrels.txt", "test/fixtures/trec_eval/qrels.test");
  put("runs/bm25", "test/fixtures/trec_eval/results.test");
  put("runs/rm3", "test/fixtures/trec_eval/results.trunc");
  put("runs/bm25.gz", "test/fixtures/trec_eval/results.test", true);
  put("2024_test_topics.json", "data/ikat/topics-2023.sample.json");
  return dir;
}

const written: string[] = [];
afterAll(() => {
  for (const f of written) rmSync(f, { recursive: true, force: true });
});

describe("package READMEs' examples", () => {
  it("every package with a README has an example", () => {
    expect(examples.length).toBeGreaterThan(20);
  });

  it("run in one process and print what their READMEs say", () => {
    const run = examples.filter((e) => !(e.pkg in NOT_RUN));
    const modules = run.map((e, i) => {
      // In a folder of the package's own (its name resolves to itself there), one per example.
      const dir = join(REPO, "packages", e.pkg, ".readme-examples", String(i));
      mkdirSync(dir, { recursive: true });
      written.push(join(REPO, "packages", e.pkg, ".readme-examples"));
      // A block of several files marks each with a `// name.ts` line (pool's worker and main).
      const parts = e.code.split(/^\/\/ (\S+)\.ts\n/m);
      const files = parts.length > 1 ? parts.slice(1) : ["main", e.code];
      let file = "";
      for (let k = 0; k < files.length; k += 2) {
        file = join(dir, `${files[k]}.js`);
        writeFileSync(file, transformSync(files[k + 1] ?? "", { loader: "ts", format: "esm" }).code);
      }
      // The last file is the program.
      return { name: e.name, file };
    });
    // Each example's output between markers, so that each is checked on its own.
    const runner = modules
      .map(
        (m) =>
          `process.stdout.write(${JSON.stringify(`\n<<${m.name}>>\n`)});\nawait import(${JSON.stringify(`file://${m.file}`)});`,
      )
      .join("\n");
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", runner], {
      cwd: exampleFolder(),
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    expect(r.status, r.stderr).toBe(0);
    const outputs = new Map(
      r.stdout
        .split(/\n<<([^>]+)>>\n/)
        .slice(1)
        .flatMap((x, i, all) => (i % 2 === 0 ? [[x, all[i + 1] ?? ""] as const] : [])),
    );
    for (const m of modules) {
      const out = outputs.get(m.name);
      expect(out, `${m.name} printed nothing`).toBeTruthy();
      const want = PRINTS[m.name];
      if (want !== undefined) expect(out, m.name).toContain(want);
    }
  });
});
