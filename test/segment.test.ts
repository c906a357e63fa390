// convkit-segment end to end: a ClueWeb22 txt tree written here; threads, shards, kill and resume (the official passages: segment.shared.test.ts).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { writeClueWeb22 } from "@convkit/formats";
import { REPO, rng, runCli, tempDir } from "@convkit/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";

/** The manifests (one per input) under dir. */
const manifests = (t: Map<string, Buffer>) => [...t.keys()].filter((k) => k.endsWith(".manifest.json"));

/** Every file under dir (relative path → bytes), temp files included, the inputs' manifests only when asked. */
function tree(dir: string, withManifest = false): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (withManifest || !e.endsWith(".manifest.json")) out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe("convkit-segment on a ClueWeb22 txt tree", () => {
  const root = tempDir("cw22-");
  const txt = join(root, "txt");
  const ref = join(root, "ref");
  beforeAll(async () => {
    const r = rng(11);
    const w = "the a web page shows data about city river music price review hotel Rome New York".split(" ");
    const sentence = () => {
      const s = Array.from({ length: 4 + Math.floor(r() * 12) }, () => w[Math.floor(r() * w.length)]!).join(
        " ",
      );
      return `${s[0]!.toUpperCase()}${s.slice(1)}${r() < 0.1 ? "..." : r() < 0.2 ? "!" : "."}`;
    };
    let n = 0;
    for (const [dir, file] of [
      ["en0000", "en0000-00"],
      ["en0000", "en0000-01"],
      ["en0001", "en0001-00"],
      ["en0001", "en0001-01"],
      ["en0002", "en0002-00"],
    ] as const) {
      const records = Array.from({ length: 40 }, () => {
        const id = `clueweb22-${file}-${String(n++).padStart(5, "0")}`;
        const lines = Array.from({ length: 1 + Math.floor(r() * 6) }, () =>
          Array.from({ length: 1 + Math.floor(r() * 8) }, sentence).join(" "),
        );
        return {
          "ClueWeb22-ID": id,
          URL: `https://example.org/${id}\n`,
          "URL-hash": "0".repeat(32),
          Language: "en",
          "Clean-Text": lines.join("\n"),
        };
      });
      await writeClueWeb22(join(txt, "en", "en00", dir, `${file}.json.gz`), records);
    }
    const x = runCli("segment", ["run", txt, "--format", "jsonl,hashes,trecweb", "-o", ref]);
    expect(x.code, x.stderr).toBe(0);
  });

  it("writes one set of outputs per input file, mirroring the tree, each with its manifest", () => {
    const t = tree(ref, true);
    expect([...t.keys()].filter((k) => k.endsWith(".jsonl")).length).toBe(5);
    expect(t.has(join("en", "en00", "en0001", "en0001-01.hashes.tsv"))).toBe(true);
    expect(manifests(t).length).toBe(5);
    expect(
      JSON.parse(t.get(join("en", "en00", "en0001", "en0001-01.manifest.json"))!.toString()),
    ).toMatchObject({
      outputs: { jsonl: t.get(join("en", "en00", "en0001", "en0001-01.jsonl"))!.length },
      docs: 40,
    });
    const first = t
      .get(join("en", "en00", "en0000", "en0000-00.jsonl"))!
      .toString()
      .split("\n")[0]!;
    expect(first).toMatch(
      /^\{"id": "clueweb22-en0000-00-00000:0", "contents": ".+", "url": "https:\/\/example.org\/clueweb22-en0000-00-00000"\}$/,
    );
  });

  it("2 threads give the same bytes", () => {
    const out = join(root, "two");
    expect(
      runCli("segment", ["run", txt, "--format", "jsonl,hashes,trecweb", "--threads", "2", "-o", out]).code,
    ).toBe(0);
    // The manifests too: nothing in them depends on the thread count.
    expect(tree(out, true)).toEqual(tree(ref, true));
  });

  it("3 shards together are the unsharded output", () => {
    const out = join(root, "shards");
    for (const i of [0, 1, 2])
      expect(
        runCli("segment", ["run", txt, "--format", "jsonl,hashes,trecweb", "--shard", `${i}/3`, "-o", out])
          .code,
      ).toBe(0);
    expect(tree(out, true)).toEqual(tree(ref, true));
  });

  it("killed mid-file (SIGKILL) and run again: the uninterrupted output, no temp files", () => {
    const out = join(root, "killed");
    const killed = spawnSync(
      process.execPath,
      [
        join(REPO, "apps/convkit/bin/convkit-segment.js"),
        "run",
        txt,
        "--format",
        "jsonl,hashes,trecweb",
        "-o",
        out,
      ],
      {
        env: { ...process.env, CONVKIT_SEGMENT_KILL_AT_UNIT: "3" },
        cwd: REPO,
      },
    );
    expect(killed.signal).toBe("SIGKILL");
    const partial = tree(out, true);
    // Each file here is one unit: killed as the fourth file's outputs were open.
    expect(manifests(partial).length).toBe(3);
    expect([...partial.keys()].some((k) => k.endsWith(".tmp"))).toBe(true);
    const again = runCli("segment", ["run", txt, "--format", "jsonl,hashes,trecweb", "-o", out]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^2 files \(3 already done\)/m);
    expect(tree(out, true)).toEqual(tree(ref, true));
  });

  it("- reads JSONL from stdin, -o - writes passage JSONL to stdout", () => {
    const r = runCli(
      "segment",
      ["run", "-", "-o", "-"],
      '{"id":"d1","text":"One. Two."}\n{"id":"d2","text":"Alpha."}\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('{"id": "d1:0", "contents": "One. Two."}\n{"id": "d2:0", "contents": "Alpha."}\n');
  });

  it("bad input: a broken line is one line naming file and line, exit 2, no output for it", () => {
    const bad = join(root, "bad.jsonl");
    writeFileSync(bad, '{"id": "a", "text": "Fine."}\n{"id": "b", "text": \n');
    const out = join(root, "badout");
    const r = runCli("segment", ["run", bad, "-o", out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n").length).toBe(1);
    expect(r.stderr).toMatch(/bad\.jsonl:2/);
    expect(existsSync(out)).toBe(false); // not even the folder it made
  });
});

describe("convkit-segment on a ClueWeb22 file of realistic size (a gzip member per record, 8 MB inflated)", () => {
  const root = tempDir("cw22-big-");
  const records = Array.from({ length: 2500 }, (_, i) => ({
    "ClueWeb22-ID": `clueweb22-en0000-00-${String(i).padStart(5, "0")}`,
    URL: `https://example.org/${i}\n`,
    "URL-hash": "0".repeat(32),
    Language: "en",
    "Clean-Text": Array.from(
      { length: 40 },
      (_, k) => `Sentence ${k} of page ${i} says a little more.${k % 3 === 2 ? "\n" : " "}`,
    ).join(""),
  }));
  const gz = join(root, "txt", "en0000-00.json.gz");
  const plain = join(root, "plain", "en0000-00.json");
  beforeAll(async () => {
    await writeClueWeb22(gz, records);
    mkdirSync(dirname(plain), { recursive: true });
    writeFileSync(plain, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  });
  it("every record segmented, 1 and 2 threads, the same bytes as the plain JSONL", () => {
    const ref = join(root, "out-plain");
    expect(runCli("segment", ["run", plain, "--format", "jsonl,hashes", "-o", ref]).code).toBe(0);
    // Files by md5 (vitest's deep equality is very slow on megabyte buffers).
    const digests = (t: Map<string, Buffer>) =>
      new Map([...t].map(([name, bytes]) => [name, createHash("md5").update(bytes).digest("hex")]));
    const want = digests(tree(ref));
    expect(readFileSync(join(ref, "en0000-00.hashes.tsv"), "utf8").trim().split("\n").length).toBeGreaterThan(
      2500,
    );
    for (const threads of ["1", "2"]) {
      const out = join(root, `out-gz-${threads}`);
      const r = runCli("segment", ["run", gz, "--format", "jsonl,hashes", "--threads", threads, "-o", out]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(tree(out, true).get("en0000-00.manifest.json")!.toString()).docs).toBe(2500);
      expect(digests(tree(out))).toEqual(want);
    }
  });
});

describe("convkit-segment: inputs that would share outputs", () => {
  it("x.json and x.json.gz are refused before anything is written (exit 2, a usage error)", () => {
    const root = tempDir("seg-stem-");
    writeFileSync(join(root, "x.json"), '{"id": "a", "text": "One. Two."}\n');
    writeFileSync(join(root, "x.json.gz"), gzipSync('{"id": "b", "text": "Three."}\n'));
    const out = join(root, "out");
    const r = runCli("segment", ["run", root, "-o", out]);
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")[0]).toMatch(/x\.json and .*x\.json\.gz would write the same outputs/);
    expect(existsSync(out)).toBe(false);
  });
});

describe("convkit-segment: bad lines past the first work unit", () => {
  const root = tempDir("seg-bad-");
  // 3,000 lines of ~700 bytes: 2 MiB, so line 2,600 sits in the third 1 MiB unit.
  const good = (i: number) =>
    `${JSON.stringify({ id: `d${i}`, text: `Sentence ${i} is here. ${"word ".repeat(130)}End.` })}\n`;
  const lines = (bad: number, badLine: Buffer) =>
    Buffer.concat(Array.from({ length: 3000 }, (_, i) => (i + 1 === bad ? badLine : Buffer.from(good(i)))));
  for (const threads of ["1", "2"]) {
    it(`--threads ${threads}: broken JSON and bytes that are not UTF-8 name their line; exit 2, one line, no output`, () => {
      for (const [name, badLine, expected] of [
        ["json", Buffer.from('{"id": "x", "text": \n'), /json\.jsonl:2600:\d+: expected valid JSON/],
        ["utf8", Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a]), /utf8\.jsonl:2601: expected UTF-8 text/],
      ] as const) {
        const file = join(root, `${name}.jsonl`);
        writeFileSync(file, lines(name === "json" ? 2600 : 2601, badLine));
        const out = join(root, `out-${name}-${threads}`);
        const r = runCli("segment", ["run", file, "--threads", threads, "-o", out]);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr).toMatch(expected);
        expect(existsSync(out)).toBe(false); // not even the folder it made
      }
    });
  }
});

describe("convkit-segment sentences: a cap on the length of a text's line", () => {
  const root = tempDir("seg-cap-");
  const good = (i: number) =>
    `${JSON.stringify({ id: `t${i}`, text: `Text ${i}. ${"word ".repeat(60)}End.` })}\n`;

  it("--max-line-bytes: a longer line is one line naming file and line, exit 2, no output; 2 threads alike", () => {
    // Line 2,500 of ~330-byte lines sits past the first work unit.
    const file = join(root, "long.jsonl");
    const lines = Array.from({ length: 3000 }, (_, i) => good(i));
    lines[2499] = `${JSON.stringify({ id: "long", text: "x".repeat(1000) })}\n`;
    writeFileSync(file, lines.join(""));
    for (const threads of ["1", "2"]) {
      const out = join(root, `long-${threads}.jsonl`);
      const r = runCli("segment", [
        "sentences",
        "--max-line-bytes",
        "1000",
        "--threads",
        threads,
        file,
        "-o",
        out,
      ]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      // Named by its first byte (line 2,500's): line readers do not count lines.
      expect(r.stderr).toContain(
        `long.jsonl:byte ${lines.slice(0, 2499).join("").length}: expected a line of at most 1,000 bytes (raise with --max-line-bytes), found a longer one\n`,
      );
      expect(existsSync(out)).toBe(false);
    }
    // Raised past that line, the same file is read whole.
    const ok = runCli("segment", ["sentences", "--max-line-bytes", "1100", file]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.trim().split("\n")).toHaveLength(3000);
  });

  it("by default, a 256 MiB line (gzip members, 256 KiB on disk, from stdin) is refused at 64 MiB", () => {
    const member = gzipSync(Buffer.alloc(16 << 20, 0x61));
    const input = Buffer.concat([
      gzipSync(`${good(0)}{"id": "big", "text": "`),
      ...Array.from({ length: 16 }, () => member),
      gzipSync('"}\n'),
    ]);
    const r = runCli("segment", ["sentences", "-"], input);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(
      `<stdin>:byte ${good(0).length}: expected a line of at most 67,108,864 bytes (raise with --max-line-bytes)`,
    );
    expect(r.stdout).toBe("");
  });
});
