// The `convkit` package as users install it: packed, installed alone into an empty prefix with npm
// (its third-party dependencies from the registry), run from another folder on this Node.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { writeClueWeb22 } from "@convkit/formats";
import { REPO, requires, rng, runCli, shared, tempDir } from "@convkit/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";

const FIXTURES = join(REPO, "test", "fixtures", "trec_eval");

/** pnpm as the test run was started with (`pnpm test`), else the one on PATH. */
function pnpm(args: string[], cwd: string): string {
  const execPath = process.env.npm_execpath;
  const [cmd, pre] =
    execPath && /pnpm/.test(execPath) && execPath.endsWith(".cjs")
      ? [process.execPath, [execPath]]
      : ["pnpm", []];
  return execFileSync(cmd, [...pre, ...args], { cwd, encoding: "utf8" });
}

/** Bytes under a folder. */
function sizeOf(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += sizeOf(p);
    else if (e.isFile()) n += statSync(p).size;
  }
  return n;
}

/** Installed packages (under a node_modules folder, nested ones too) whose package.json declares an install script. */
function withInstallScripts(modules: string): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    let pkg: { scripts?: Record<string, string> } | undefined;
    try {
      pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    } catch {
      pkg = undefined;
    }
    const scripts = pkg?.scripts ?? {};
    // npm runs `node-gyp rebuild` for a package with a binding.gyp and no install script of its own.
    if (
      pkg &&
      (["preinstall", "install", "postinstall"].some((k) => k in scripts) ||
        statSync(join(dir, "binding.gyp"), { throwIfNoEntry: false }))
    )
      found.push(relative(modules, dir));
    walk(join(dir, "node_modules"));
  };
  const walk = (m: string) => {
    if (!statSync(m, { throwIfNoEntry: false })?.isDirectory()) return;
    for (const e of readdirSync(m, { withFileTypes: true }).filter((x) => x.isDirectory())) {
      if (e.name.startsWith("@")) {
        for (const s of readdirSync(join(m, e.name), { withFileTypes: true }))
          if (s.isDirectory()) visit(join(m, e.name, s.name));
      } else if (!e.name.startsWith(".")) visit(join(m, e.name));
    }
  };
  walk(modules);
  return found;
}

/** Every file under a folder, by relative path, as a digest. */
function digests(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

describe(`the convkit tarball installed alone with npm, run from another folder (Node ${process.versions.node})`, () => {
  const work = tempDir("convkit-install-");
  const prefix = join(work, "prefix");
  const elsewhere = tempDir("convkit-cwd-");
  let bin = "";
  const run = (args: string[], input?: string) =>
    spawnSync(process.execPath, [bin, ...args], {
      cwd: elsewhere,
      input,
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });

  beforeAll(() => {
    const packed = pnpm(["pack", "--pack-destination", work], join(REPO, "apps", "convkit"));
    const tarball = packed.trim().split("\n").at(-1)!.trim();
    expect(tarball).toMatch(/convkit-\d+\.\d+\.\d+\.tgz$/);
    const t0 = performance.now();
    const npm = spawnSync(
      "npm",
      ["install", "-g", "--prefix", prefix, "--no-fund", "--no-audit", "--foreground-scripts", tarball],
      { cwd: elsewhere, encoding: "utf8" },
    );
    expect(npm.status, npm.stderr).toBe(0);
    // No dependency compiles or downloads anything: no node-gyp build, no Node headers.
    expect(`${npm.stdout}${npm.stderr}`).not.toMatch(
      /gyp info|gyp ERR|node-gyp rebuild|CXX\(target\)|prebuild-install/,
    );
    // No dependency has an install script at all (the README says so): npm ran none (with
    // --foreground-scripts it prints `> name@version install`) and warned of none; and no
    // installed package declares one. (bullmq's msgpackr-extract had one: bullmq is bundled.)
    expect(`${npm.stdout}${npm.stderr}`).not.toMatch(
      /^> \S+@\S+ (preinstall|install|postinstall)$|install-scripts/m,
    );
    expect(withInstallScripts(join(prefix, "lib", "node_modules"))).toEqual([]);
    bin = join(prefix, "lib", "node_modules", "convkit", "bin", "convkit.js");
    const installed = sizeOf(prefix);
    const seconds = (performance.now() - t0) / 1000;
    process.stderr.write(
      `convkit installed in ${seconds.toFixed(1)} s, ${(installed / 2 ** 20).toFixed(1)} MiB (Node ${process.versions.node})\n`,
    );
  }, 600_000);

  it("convkit --version and the aliases' bins", () => {
    const version = JSON.parse(readFileSync(join(REPO, "apps", "convkit", "package.json"), "utf8")).version;
    const r = run(["--version"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`convkit ${version}\n`);
    for (const alias of ["convkit", "convkit-trec-eval", "convkit-segment", "convkit-ikat"])
      expect(statSync(join(prefix, "bin", alias)).isFile()).toBe(true);
  });

  it("trec-eval on trec_eval's own test files prints trec_eval's bytes", () => {
    for (const [args, expected] of [
      [["qrels.test", "results.test"], "out.test"],
      [["-q", "-c", "qrels.test", "results.trunc"], "out.test.aqc"],
    ] as const) {
      const r = run([
        "trec-eval",
        ...args.map((a) => (a.startsWith("-") ? a : join(FIXTURES, a))),
        ...(expected === "out.test.aqc" ? ["-m", "all_trec"] : []),
      ]);
      expect(r.status, r.stderr).toBe(0);
      if (expected === "out.test") expect(r.stdout).toBe(readFileSync(join(FIXTURES, expected), "utf8"));
      else expect(r.stdout).toMatch(/^runid\s+\S+\s+STANDARD$/m);
    }
  });

  it("ikat build-db, then validate against it (the native store loads on this Node)", () => {
    const hashes = join(work, "hashes.tsv");
    let text = "";
    for (let d = 0; d < 500; d++)
      for (let k = 0; k < 4; k++)
        text += `clueweb22-en0000-00-${String(d).padStart(5, "0")}\t${k}\t${createHash("md5").update(`${d}:${k}`).digest("hex")}\n`;
    writeFileSync(hashes, text);
    const db = join(work, "passages.db");
    const b = run(["ikat", "build-db", hashes, "--db", db]);
    expect(b.status, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/^2000 rows in /m);
    const missing = run(["ikat", "validate", "--help"]);
    expect(missing.status).toBe(0);
    expect(missing.stdout).toContain("--passages-db");
  });

  it("gen-synthetic on data given by path, and on the sample data shipped inside the package", () => {
    const byPath = run([
      "gen-synthetic",
      "--data",
      join(REPO, "data", "clariq"),
      "--out",
      join(work, "synth-a"),
    ]);
    expect(byPath.status, byPath.stderr).toBe(0);
    const shipped = run(["gen-synthetic", "--out", join(work, "synth-b")]);
    expect(shipped.status, shipped.stderr).toBe(0);
    const a = digests(join(work, "synth-a"));
    expect(Object.keys(a)).toContain("dev_synthetic.jsonl");
    expect(digests(join(work, "synth-b"))).toEqual(a);
  });

  it("segment run with two threads (worker threads and WebAssembly inside the bundle) gives one thread's bytes", async () => {
    const txt = join(work, "txt");
    const r = rng(5);
    const words = "the a page shows data about river music price review hotel Rome New York".split(" ");
    const sentence = () =>
      `${Array.from({ length: 3 + Math.floor(r() * 10) }, () => words[Math.floor(r() * words.length)]!).join(" ")}.`;
    for (const file of ["en0000-00", "en0000-01", "en0000-02"])
      await writeClueWeb22(
        join(txt, "en", "en00", "en0000", `${file}.json.gz`),
        Array.from({ length: 30 }, (_, i) => ({
          "ClueWeb22-ID": `clueweb22-${file}-${String(i).padStart(5, "0")}`,
          URL: `https://example.org/${file}/${i}\n`,
          "URL-hash": "0".repeat(32),
          Language: "en",
          "Clean-Text": Array.from({ length: 12 }, sentence).join(" "),
        })),
      );
    const one = run(["segment", "run", txt, "--format", "jsonl,hashes", "-o", join(work, "seg1")]);
    expect(one.status, one.stderr).toBe(0);
    const two = run([
      "segment",
      "run",
      txt,
      "--format",
      "jsonl,hashes",
      "--threads",
      "2",
      "-o",
      join(work, "seg2"),
    ]);
    expect(two.status, two.stderr).toBe(0);
    const d1 = digests(join(work, "seg1"));
    expect(Object.keys(d1).filter((f) => f.endsWith(".jsonl"))).toHaveLength(3);
    // A manifest per input, naming the installed package as the writer; nothing in them depends on --threads.
    expect(Object.keys(d1).filter((f) => f.endsWith(".manifest.json"))).toHaveLength(3);
    expect(
      readFileSync(join(work, "seg1", "en", "en00", "en0000", "en0000-00.manifest.json"), "utf8"),
    ).toMatch(/"writer": "convkit \d+\.\d+\.\d+/);
    const d2 = digests(join(work, "seg2"));
    expect(d2).toEqual(d1);
  });

  // Needs the shared model (../shared): skipped with one line without it, failed under CI.
  requires("shared").it(
    "spaCy's senter (its WebAssembly kernel) in the installed bundle gives the in-repo build's sentences",
    () => {
      const r = rng(5);
      const words = "the a page shows data about river music price review hotel Rome New York".split(" ");
      const sentence = () =>
        `${Array.from({ length: 3 + Math.floor(r() * 10) }, () => words[Math.floor(r() * words.length)]!).join(" ")}.`;
      const model = shared("models", "en_core_web_sm-3.8.0");
      const text = Array.from({ length: 100 }, (_, i) =>
        JSON.stringify({ id: `t${i}`, text: Array.from({ length: 1 + (i % 7) }, sentence).join(" ") }),
      ).join("\n");
      const args = [
        "segment",
        "sentences",
        "--splitter",
        "spacy",
        "--spacy-model",
        model,
        "--tokens",
        "--threads",
        "2",
        "-",
      ];
      const installed = run(args, text);
      expect(installed.status, installed.stderr).toBe(0);
      const inRepo = runCli("segment", args.slice(1), text);
      expect(inRepo.code, inRepo.stderr).toBe(0);
      expect(installed.stdout.trim().split("\n")).toHaveLength(100);
      expect(installed.stdout).toBe(inRepo.stdout);
    },
    300_000,
  );

  it("a user's mistake is one line and exit 2, not a stack trace", () => {
    const r = run(["trec-eval", join(FIXTURES, "qrels.test"), join(work, "no-such-run")]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    const u = run(["no-such-command"]);
    expect(u.status).toBe(2);
    expect(u.stderr).toMatch(/^convkit: unknown command "no-such-command"/);
  });
});
