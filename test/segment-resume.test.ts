// convkit-segment run again over its own output folder: what is current is kept byte for byte and
// said "already done"; what changed (an input, an option, a format asked for, the writer) is redone
// to a fresh run's bytes, in one line on stderr. And a FIFO given as input is read (issue #39, 2 and 8).
import { execFileSync } from "node:child_process";
import {
  createWriteStream,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { runCli, runCliAsync, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const doc = (id: string, n: number, word = "river") =>
  `${JSON.stringify({ id, text: Array.from({ length: n }, (_, k) => `Sentence ${k} about the ${word}.`).join(" ") })}\n`;
/** Two documents of 23 and 7 sentences: several passages at the default window and stride. */
const ORIGINAL = doc("d1", 23) + doc("d2", 7);

/** A folder with `in/a.jsonl` and its outputs in `out` (jsonl only), made by a first run. */
function setup(content = ORIGINAL, args: string[] = []) {
  const root = tempDir("seg-resume-");
  const input = join(root, "in", "a.jsonl");
  execFileSync("mkdir", ["-p", join(root, "in")]);
  writeFileSync(input, content);
  const out = join(root, "out");
  const first = run(input, out, args);
  expect(first.code, first.stderr).toBe(0);
  return { root, input, out };
}

function run(input: string, out: string, args: string[] = []) {
  return runCli("segment", ["run", input, "-o", out, ...args]);
}

/** A fresh run's output of this input into a folder of its own. */
function fresh(root: string, input: string, args: string[] = [], name = "fresh"): string {
  const out = join(root, name);
  const r = run(input, out, args);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

/** Output files (not the manifest) with their bytes. */
function outputs(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => !f.endsWith(".manifest.json"))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), "utf8")]),
  );
}

/** Identity of a file on disk: a rewritten one (renamed over) has another inode and mtime. */
const identity = (p: string) => {
  const s = statSync(p, { bigint: true });
  return `${s.ino}:${s.mtimeNs}`;
};

/** The stderr lines that are not the heuristic splitter's note. */
const said = (stderr: string) => stderr.split("\n").filter((l) => l !== "" && !l.includes("note:"));

describe("convkit-segment run again: resume that cannot be stale", () => {
  it("unchanged: already done, the outputs' bytes untouched (not even rewritten)", () => {
    const { input, out } = setup();
    const before = identity(join(out, "a.jsonl"));
    const manifest = readFileSync(join(out, "a.manifest.json"), "utf8");
    const r = run(input, out);
    expect(r.code, r.stderr).toBe(0);
    expect(said(r.stderr)).toEqual([expect.stringMatching(/^0 files \(1 already done\), 0 documents/)]);
    expect(identity(join(out, "a.jsonl"))).toBe(before);
    expect(readFileSync(join(out, "a.manifest.json"), "utf8")).toBe(manifest);
  });

  it("an input changed under the same name (another size): redone, one line why, a fresh run's bytes", () => {
    const { root, input, out } = setup();
    writeFileSync(input, doc("d1", 23, "mountain") + doc("d2", 9));
    const r = run(input, out);
    expect(r.code, r.stderr).toBe(0);
    expect(said(r.stderr)).toEqual([
      `${input}: changed since ${join(out, "a")}.* was written (size), redoing`,
      expect.stringMatching(/^1 files \(0 already done\), 2 documents/),
    ]);
    expect(outputs(out)).toEqual(outputs(fresh(root, input)));
    expect(outputs(out)["a.jsonl"]).toContain("mountain");
    // Recorded: the run after is "already done".
    expect(run(input, out).stderr).toMatch(/^0 files \(1 already done\)/m);
  });

  it("an input changed at the same size (another mtime): its sha256 differs, redone", () => {
    const { root, input, out } = setup();
    writeFileSync(input, ORIGINAL.replaceAll("river", "ocean"));
    const t = statSync(input).mtime;
    utimesSync(input, t, new Date(t.getTime() + 5000));
    const r = run(input, out);
    expect(r.code, r.stderr).toBe(0);
    expect(said(r.stderr)[0]).toBe(
      `${input}: changed since ${join(out, "a")}.* was written (mtime and content), redoing`,
    );
    expect(outputs(out)).toEqual(outputs(fresh(root, input)));
    expect(outputs(out)["a.jsonl"]).toContain("ocean");
  });

  it("touched only (a new mtime, the same bytes): kept, said once, the new mtime recorded", () => {
    const { input, out } = setup();
    const before = identity(join(out, "a.jsonl"));
    const t = statSync(input).mtime;
    utimesSync(input, t, new Date(t.getTime() + 5000));
    const r = run(input, out);
    expect(r.code, r.stderr).toBe(0);
    expect(said(r.stderr)).toEqual([
      `${input}: touched since ${join(out, "a")}.* was written, the same content (sha256): kept`,
      expect.stringMatching(/^0 files \(1 already done\)/),
    ]);
    expect(identity(join(out, "a.jsonl"))).toBe(before);
    const again = run(input, out);
    expect(said(again.stderr)).toEqual([expect.stringMatching(/^0 files \(1 already done\)/)]);
  });

  it("a format asked for that is not there is written, the current ones left as they are", () => {
    const { root, input, out } = setup();
    const before = identity(join(out, "a.jsonl"));
    const r = run(input, out, ["--format", "jsonl,hashes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(said(r.stderr)[0]).toBe(`${input}: ${join(out, "a.hashes.tsv")} not written yet: writing it`);
    expect(identity(join(out, "a.jsonl"))).toBe(before);
    expect(outputs(out)).toEqual(outputs(fresh(root, input, ["--format", "jsonl,hashes"])));
    // An output deleted (or changed) since is written again.
    unlinkSync(join(out, "a.hashes.tsv"));
    const gone = run(input, out, ["--format", "jsonl,hashes"]);
    expect(said(gone.stderr)[0]).toBe(`${input}: ${join(out, "a.hashes.tsv")} gone: writing it`);
    expect(outputs(out)).toEqual(outputs(join(root, "fresh")));
    expect(run(input, out, ["--format", "hashes,jsonl"]).stderr).toMatch(/^0 files \(1 already done\)/m);
  });

  it("other options that change the bytes (stride, window, max-length, preset): redone; a preset's default given: not", () => {
    const { root, input, out } = setup();
    for (const [args, why] of [
      [["--stride", "3"], "stride 5, now 3"],
      [["--stride", "3", "--window", "4"], "window 10, now 4"],
      [["--stride", "3", "--window", "4", "--max-length", "200"], "maxLength 10000, now 200"],
    ] as const) {
      const r = run(input, out, [...args]);
      expect(r.code, r.stderr).toBe(0);
      expect(said(r.stderr)[0]).toBe(
        `${input}: ${join(out, "a")}.* was written with other options (${why}), redoing`,
      );
      expect(outputs(out)).toEqual(outputs(fresh(root, input, [...args], `fresh-${args.length}`)));
    }
    const preset = run(input, out, ["--preset", "msmarco"]);
    expect(said(preset.stderr)[0]).toMatch(
      /other options \(preset "ikat", now "msmarco"; window 4, now 10; stride 3, now 5; maxLength 200, now 10000; idSeparator ":", now "#"; /,
    );
    expect(outputs(out)["a.jsonl"]).toMatch(/^\{"id": "d1#0"/);
    const ikat = run(input, out);
    expect(said(ikat.stderr)[0]).toMatch(/other options/);
    expect(run(input, out, ["--stride", "5", "--window", "10"]).stderr).toMatch(
      /^0 files \(1 already done\)/m,
    );
  });

  it("redone whole: outputs of formats not asked for this time (made from the old input) are removed", () => {
    const { input, out } = setup(ORIGINAL, ["--format", "jsonl,trecweb"]);
    expect(existsSync(join(out, "a.trecweb"))).toBe(true);
    writeFileSync(input, doc("d1", 3));
    expect(run(input, out).code).toBe(0);
    expect(Object.keys(outputs(out))).toEqual(["a.jsonl"]);
  });

  it("outputs of an older convkit (a manifest.tsv, no manifest per input) and of another version: redone, said", () => {
    const { root, input, out } = setup();
    const m = join(out, "a.manifest.json");
    // What an older convkit left: the outputs, and a list of inputs done by name.
    renameSync(m, join(root, "kept.json"));
    writeFileSync(join(out, "manifest.tsv"), "a.jsonl\t2\t6\n");
    writeFileSync(join(out, "a.jsonl"), "stale\n");
    const r = run(input, out);
    expect(r.code, r.stderr).toBe(0);
    expect(said(r.stderr)[0]).toBe(
      `${input}: ${join(out, "a")}.* has no manifest (an older convkit's output, or a run killed before its end), redoing`,
    );
    expect(existsSync(join(out, "manifest.tsv"))).toBe(false);
    expect(outputs(out)).toEqual(outputs(fresh(root, input)));
    // Written by another version: redone.
    writeFileSync(m, readFileSync(m, "utf8").replace(/"writer": "[^"]*"/, '"writer": "convkit 0.0.1"'));
    const other = run(input, out);
    expect(said(other.stderr)[0]).toMatch(/ was written by convkit 0\.0\.1, this is \S+ \S+, redoing$/);
    // A manifest that is cut (not JSON) is no manifest.
    writeFileSync(m, readFileSync(m, "utf8").slice(0, 40));
    expect(said(run(input, out).stderr)[0]).toMatch(/has no manifest/);
    expect(run(input, out).stderr).toMatch(/^0 files \(1 already done\)/m);
  });

  it("stdin is segmented every time (it cannot be recognised again), and any claim on its outputs goes", () => {
    const root = tempDir("seg-resume-stdin-");
    const out = join(root, "out");
    for (const content of [ORIGINAL, doc("x", 2)]) {
      const r = runCli("segment", ["run", "-", "-o", out], content);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^1 files \(0 already done\)/m);
    }
    expect(readFileSync(join(out, "stdin.jsonl"), "utf8")).toMatch(/^\{"id": "x:0"/);
    expect(existsSync(join(out, "stdin.manifest.json"))).toBe(false);
  });
});

describe("convkit-segment run: -o a file", () => {
  it("is one line, exit 1 (an output that cannot be written, as every command says it), before any work; the file left as it was", () => {
    const root = tempDir("seg-resume-ofile-");
    const input = join(root, "a.jsonl");
    writeFileSync(input, ORIGINAL);
    const file = join(root, "taken");
    writeFileSync(file, "mine\n");
    const r = run(input, file);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`convkit-segment run: cannot write ${file}: ${file} is not a directory\n`);
    expect(readFileSync(file, "utf8")).toBe("mine\n");
  });
});

describe("convkit-segment run: a FIFO as input", () => {
  it("is read as a stream (JSONL, plain or gzip), the file's bytes; no manifest (it cannot be recognised again)", async () => {
    const { root, input } = setup();
    const want = outputs(fresh(root, input));
    for (const content of [ORIGINAL, execFileSync("gzip", ["-c", input])]) {
      const fifo = join(root, "pipe.jsonl");
      if (existsSync(fifo)) unlinkSync(fifo);
      execFileSync("mkfifo", [fifo]);
      // The writer's open waits for the reader's (on libuv's threads, not the event loop).
      createWriteStream(fifo).end(content);
      const out = join(root, `fifo-${content.length}`);
      const r = await runCliAsync("segment", ["run", fifo, "-o", out]);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(join(out, "pipe.jsonl"), "utf8")).toBe(want["a.jsonl"]);
      expect(readdirSync(out)).toEqual(["pipe.jsonl"]);
    }
    // TrecWeb from a pipe: one line saying so, exit 2, nothing written.
    const fifo = join(root, "pipe.trecweb");
    execFileSync("mkfifo", [fifo]);
    createWriteStream(fifo).end("<DOC>\n<DOCNO>x</DOCNO>\n</DOC>\n");
    const tw = await runCliAsync("segment", ["run", fifo, "-o", join(root, "tw")]);
    expect(tw.code).toBe(2);
    expect(tw.stderr).toBe(
      `${fifo}:1: expected JSONL (a pipe or FIFO is read as JSONL; give TrecWeb as a file), found <DOC>\n`,
    );
    expect(existsSync(join(root, "tw"))).toBe(false); // the folder it made is removed too
  });
});
