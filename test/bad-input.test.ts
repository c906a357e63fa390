// The bad-input suite: every malformed file gives one clear line, exit code 2 and no output left behind.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { dumpPickle } from "@convkit/pickle";
import { runCli, tempDir } from "@convkit/test-helpers";
import tar from "tar-stream";
import { describe, expect, it } from "vitest";

const HEADER =
  "topic_id\tinitial_request\ttopic_desc\tclarification_need\tfacet_id\tfacet_desc\tquestion_id\tquestion\tanswer\n";
const ROW = "301\treq\tdesc\t2\tF9001\tfacet\tQ90001\tquestion?\tanswer\n";

async function tarball(name: string, body: Buffer): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name }, body);
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const c of pack) parts.push(c as Buffer);
  return gzipSync(Buffer.concat(parts));
}

interface Case {
  name: string;
  file: string;
  content: () => Buffer | Promise<Buffer>;
  format?: string;
  message: RegExp;
}

const cases: Case[] = [
  {
    name: "ClariQ TSV with a missing column",
    file: "dev.tsv",
    content: () => Buffer.from(`${HEADER + ROW}302\treq\tdesc\t2\tF9001\tfacet\tQ90001\tquestion?\n`),
    message: /dev\.tsv:3: expected 9 tab-separated fields, found 8$/,
  },
  {
    name: "ClariQ TSV with a bad number",
    file: "train.tsv",
    content: () => Buffer.from(HEADER + ROW.replace("\t2\t", "\ttwo\t")),
    message: /train\.tsv:2:\d+: expected an integer clarification_need, found "two"$/,
  },
  {
    name: "ClariQ TSV with the wrong header",
    file: "t.tsv",
    format: "clariq-topics",
    content: () => Buffer.from(`topic\t${HEADER.slice(9)}${ROW}`),
    message: /t\.tsv:1: expected the header "topic_id\\tinitial_request/,
  },
  {
    name: "ClariQ TSV truncated inside a quoted field",
    file: "q.tsv",
    content: () => Buffer.from(`${HEADER}301\t"unterminated`),
    message: /q\.tsv:2: expected a closing quote \("\), found end of file$/,
  },
  {
    name: "invalid UTF-8",
    file: "bank.tsv",
    content: () =>
      Buffer.concat([
        Buffer.from("question_id\tquestion\nQ00002\tcaf"),
        Buffer.from([0xe9]),
        Buffer.from("\n"),
      ]),
    message: /bank\.tsv:2:11: expected valid UTF-8, found byte 0xe9$/,
  },
  {
    name: "qrels with a non-integer grade",
    file: "x.qrel",
    format: "qrels",
    content: () => Buffer.from("F1 0 d1 1\nF1 0 d2 high\n"),
    message: /x\.qrel:2:\d+: expected an integer relevance grade, found "high"$/,
  },
  {
    name: "run line with 5 columns",
    file: "x.run",
    format: "run",
    content: () => Buffer.from("1 Q0 d1 1 2.5 tag\n1 Q0 d2 2 1.5\n"),
    message: /x\.run:2: expected 6 whitespace-separated fields \(qid Q0 docno rank score tag\), found 5$/,
  },
  {
    name: "run line with a non-numeric score",
    file: "y.run",
    format: "run",
    content: () => Buffer.from("1 Q0 d1 1 abc tag\n"),
    message: /y\.run:1:\d+: expected a numeric score, found "abc"$/,
  },
  {
    name: "truncated gzip member",
    file: "dev.tsv.gz",
    content: () => gzipSync(HEADER + ROW.repeat(2000)).subarray(0, 300),
    format: "clariq-topics",
    message: /dev\.tsv\.gz:byte 300: expected a complete gzip member, found end of file$/,
  },
  {
    name: "tar entry with ../ in its path",
    file: "evil.pkl.tar.gz",
    content: () => tarball("../evil.pkl", dumpPickle(1)),
    message:
      /evil\.pkl\.tar\.gz: expected tar member paths inside the archive, found member "\.\.\/evil\.pkl"$/,
  },
  {
    name: "pickle with a GLOBAL opcode",
    file: "global.pkl",
    content: () => Buffer.from("\x80\x02cposix\nsystem\nq\x00.", "latin1"),
    message:
      /global\.pkl:byte 2: expected plain data \(no class may be imported or called\), found GLOBAL posix\.system$/,
  },
  {
    name: "pickle cut mid-frame",
    file: "cut.pkl",
    content: () =>
      dumpPickle(
        new Map(Array.from({ length: 5000 }, (_, i) => [i, `value ${i}`] as [number, string])),
      ).subarray(0, 4000),
    message: /cut\.pkl:byte 4000: expected the rest of a frame \(\d+ more bytes\), found end of file$/,
  },
  {
    name: "truncated JSON (qulac.json)",
    file: "qulac.json",
    content: () => Buffer.from('{"topic_id":{"0":1,"1":'),
    format: "qulac-json",
    message: /qulac\.json:1:\d+: expected valid JSON, found end of input$/,
  },
  {
    name: "truncated args.me corpus",
    file: "args.json",
    format: "args-me",
    content: () =>
      Buffer.from('{"arguments": [{"id": "a", "conclusion": "c", "premises": []}, {"id": "b", "concl'),
    message: /args\.json:byte \d+: expected valid JSON, found /,
  },
  {
    // Issue 39: a RangeError stack (JSON.stringify of the parsed value), exit 1.
    name: "a million-deep array in qulac.json",
    file: "qulac.json",
    format: "qulac-json",
    content: () => Buffer.from(`{"topic_id":{"0":${"[".repeat(1e6)}${"]".repeat(1e6)}}}`),
    message: /qulac\.json:1:1016: expected JSON nested at most 1000 deep, found an array nested deeper$/,
  },
  {
    name: "a million-deep array in an args.me corpus",
    file: "args.json",
    format: "args-me",
    content: () => Buffer.from(`{"arguments": [${"[".repeat(1e6)}${"]".repeat(1e6)}]}`),
    message: /args\.json:1:1014: expected JSON nested at most 1000 deep, found an array nested deeper$/,
  },
  {
    // Issue 39: expanded to "function Object() { [native code] }", exit 0.
    name: "Touché topics with &constructor;",
    file: "topics.xml",
    format: "touche-topics",
    content: () =>
      Buffer.from("<topics>\n<topic><number>1</number><title>a &constructor;</title></topic>\n</topics>\n"),
    message:
      /topics\.xml:2:35: expected an entity \(&amp; &lt; &gt; &quot; &apos; &#N;\), found "&constructor;"$/,
  },
  {
    name: "Touché topics with &#0;",
    file: "topics.xml",
    format: "touche-topics",
    content: () =>
      Buffer.from("<topics>\n<topic><number>1</number><title>a &#0;</title></topic>\n</topics>\n"),
    message:
      /topics\.xml:2:35: expected a character reference to a character XML allows, found &#0; \(U\+0000\)$/,
  },
  {
    name: "empty file",
    file: "empty.run",
    content: () => Buffer.alloc(0),
    message: /empty\.run:1: expected a known format \(pass --format\), found an unrecognized first line$/,
  },
  {
    name: "passage hash with a bad digest",
    file: "h.tsv",
    format: "passage-hashes",
    content: () => Buffer.from("clueweb22-en0000-00-00000\t0\tnot-a-digest\n"),
    message: /h\.tsv:1: expected an md5 hex digest, found "not-a-digest"$/,
  },
  {
    name: "ClueWeb22 txt record whose Clean-Text is not a string",
    file: "en0000-00.json.gz",
    format: "clueweb22",
    content: () =>
      gzipSync(
        `${JSON.stringify({ "ClueWeb22-ID": "clueweb22-en0000-00-00000", URL: "u\n", "URL-hash": "h", Language: "en", "Clean-Text": 5 })}\n`,
      ),
    message: /en0000-00\.json\.gz:1: expected a string "Clean-Text" in the ClueWeb22 txt record, found "5"$/,
  },
  {
    name: "iKAT passages line whose id is a number",
    file: "psg.jsonl",
    format: "passages",
    content: () =>
      Buffer.from('{"id": "clueweb22-en0000-00-00000:0", "contents": "a"}\n{"id": 7, "contents": "b"}\n'),
    message: /psg\.jsonl:2: expected an object with string "id" and "contents", found/,
  },
  {
    name: "args.me argument whose id is a number",
    file: "args.json",
    format: "args-me",
    content: () =>
      Buffer.from(
        JSON.stringify({ arguments: [{ id: 5, conclusion: "c", premises: [{ text: "p", stance: "PRO" }] }] }),
      ),
    message: /args\.json: expected a string in arguments\[0\]\.id, found 5$/,
  },
  {
    name: "iKAT 2025 run line whose references is a list",
    file: "run25.jsonl",
    format: "ikat25-run",
    content: () =>
      Buffer.from(
        `${JSON.stringify({ metadata: { team_id: "t", run_id: "r", run_type: "automatic" }, turn_id: "1_1", references: ["a"], responses: [] })}\n`,
      ),
    message: /run25\.jsonl:1: expected an object at references, found \["a"\]$/,
  },
];

describe("bad input through convkit-convert", () => {
  for (const c of cases) {
    it(`${c.name}: one line, exit 2, nothing written`, async () => {
      const dir = tempDir();
      const input = join(dir, c.file);
      writeFileSync(input, await c.content());
      const out = join(dir, "out", "result.jsonl");
      const r = runCli("convert", [...(c.format ? ["--format", c.format] : []), input, "-o", out]);
      expect(r.code).toBe(2);
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines.length, r.stderr).toBe(1);
      expect(lines[0]).toMatch(c.message);
      expect(lines[0]!.startsWith(input)).toBe(true);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(join(dir, "out")) ? readdirSync(join(dir, "out")) : []).toEqual([]);
      expect(existsSync(join(dir, "evil.pkl"))).toBe(false);
    });
  }
});

describe("convkit-convert usage", () => {
  it("prints --help and exits 0; rejects an unknown flag with exit 2", () => {
    const help = runCli("convert", ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: convkit-convert \[options\] INPUT\.\.\./);
    const bad = runCli("convert", ["--nope", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown option '--nope'");
  });

  it("reads stdin (-) and writes JSONL to stdout (-)", () => {
    const r = runCli("convert", ["--format", "qrels", "-"], "F1 0 d1 -2\nF1 0 d2 3\n");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '{"qid":"F1","iter":"0","docno":"d1","rel":-2}\n{"qid":"F1","iter":"0","docno":"d2","rel":3}\n',
    );
  });
});

describe("convkit-ikat convert: a run checked field by field", () => {
  it("a response whose rank is not a number: one line naming its path, exit 2, nothing written", () => {
    const dir = tempDir();
    const input = join(dir, "run.json");
    const run = {
      run_name: "r",
      run_type: "automatic",
      turns: [{ turn_id: "1-1_1", responses: [{ rank: "first", text: "t", passage_provenance: [] }] }],
    };
    writeFileSync(input, JSON.stringify(run));
    const out = join(dir, "run.trec");
    const r = runCli("ikat", ["convert", input, "-o", out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split("\n"), r.stderr).toHaveLength(1);
    // As generate_run.py's protobuf parse refuses it, with the line in the file.
    expect(r.stderr).toMatch(
      /run\.json:1: expected a run generate_run\.py reads, found .*Failed to parse rank field: invalid literal for int\(\) with base 10: 'first'/,
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe("bad input outside convkit-convert: one line naming file and place, exit 2", () => {
  const source = { dataset: "clariq", repo: "a/b", ref: "main", path: "x.tsv", to: "clariq/x.tsv" };
  const manifests: [string, string, RegExp][] = [
    [
      "not JSON",
      '{"base": "https://x", "files": [',
      /sources\.json:1:\d+: expected valid JSON, found end of input$/,
    ],
    ["an array", "[]", /sources\.json: expected an object, found an array$/],
    ["files missing", '{"base": "https://x"}', /sources\.json: expected an array in files, found nothing$/],
    [
      "a field of the wrong type",
      JSON.stringify({ base: "https://x", files: [source, { ...source, ref: 3 }] }),
      /sources\.json: expected a string in files\[1\]\.ref, found 3$/,
    ],
    [
      "a target outside the output folder",
      JSON.stringify({ base: "https://x", files: [{ ...source, to: "../../escape.tsv" }] }),
      /sources\.json: expected a path inside the output folder in files\[0\]\.to, found "\.\.\/\.\.\/escape\.tsv"$/,
    ],
  ];
  for (const [name, text, message] of manifests)
    it(`convkit-data fetch --manifest: ${name}`, () => {
      const dir = tempDir();
      const m = join(dir, "sources.json");
      writeFileSync(m, text);
      const r = runCli("data", ["fetch", "--manifest", m, "--out", join(dir, "real")]);
      expect(r.code, r.stderr).toBe(2);
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(lines[0]!.startsWith(m)).toBe(true);
      expect(existsSync(join(dir, "real"))).toBe(false);
    });

  it("convkit-segment agreement: a passage record without its text is bad input at its line", () => {
    const dir = tempDir();
    const p = join(dir, "passages.jsonl");
    writeFileSync(
      p,
      `${JSON.stringify({ doc_id: "d", passage_id: 0, passage_text: "One. Two." })}\n${JSON.stringify({ doc_id: "d", passage_id: 1 })}\n`,
    );
    const r = runCli("segment", ["agreement", "--passages", p]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`${p}:2: expected a string in passage_text, found nothing\n`);
    writeFileSync(p, `${JSON.stringify({ doc_id: "d", passage_id: [1], passage_text: "x" })}\n`);
    const id = runCli("segment", ["agreement", "--passages", p]);
    expect(id.code).toBe(2);
    expect(id.stderr).toBe(`${p}:1: expected a string or a number in passage_id, found an array\n`);
  });

  it("a folder given as an input: one line naming it, exit 2 (was EISDIR and a stack, exit 1)", () => {
    const dir = tempDir();
    const runs: [string, string[]][] = [
      ["ikat", ["validate", "--year", "2024", "--topics", dir, dir]],
      ["ikat", ["convert", dir]],
      ["ikat", ["flatten", dir]],
      ["convert", [dir]],
    ];
    for (const [app, args] of runs) {
      const r = runCli(app, args);
      expect(r.stderr, `${app} ${args.join(" ")}`).toBe(`${dir}: expected a file, found a directory\n`);
      expect(r.code).toBe(2);
    }
  });

  it("ikat eval-passages -m bogus: the usage line trec-eval gives, exit 2, before any input is read (was RangeError and a stack, exit 1)", () => {
    const dir = tempDir();
    const r = runCli("ikat", [
      "eval-passages",
      "--qrels",
      join(dir, "q"),
      "-m",
      "bogus",
      join(dir, "run.json"),
    ]);
    expect(r.stderr).toMatch(
      /^convkit-ikat eval-passages: unknown measure "bogus" \(known: [^\n]+\)\nTry 'convkit-ikat eval-passages --help'\.\n$/,
    );
    expect(r.code).toBe(2);
    const t = runCli("trec-eval", ["-m", "bogus", join(dir, "q"), join(dir, "run")]);
    expect(t.stderr.split("\n")[0]).toBe(
      r.stderr.split("\n")[0]!.replace("convkit-ikat eval-passages", "convkit-trec-eval"),
    );
  });

  it("explore --port in use: one line naming it, exit 1 (was 'Error: listen EADDRINUSE' and a stack)", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "q"), "1 0 d1 1\n");
    writeFileSync(join(dir, "r"), "1 Q0 d1 1 3 a\n");
    writeFileSync(join(dir, "s"), "1 Q0 d1 1 2 b\n");
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, "127.0.0.1", ok));
    const port = (taken.address() as AddressInfo).port;
    try {
      const r = runCli("explore", [
        "--qrels",
        join(dir, "q"),
        "--run",
        join(dir, "r"),
        "--run",
        join(dir, "s"),
        "--port",
        String(port),
      ]);
      expect(r.stderr).toBe(`cannot listen on 127.0.0.1:${port}: address already in use\n`);
      expect(r.code).toBe(1);
    } finally {
      taken.close();
    }
  });
});
