// Issue 39, item 4: pickles of a few hundred bytes that crashed `convkit convert` with a stack trace
// (a 100,000-deep list, a MARK-nested tuple, a list holding itself), took all memory (30 levels of
// 10 memo references each) or minutes (a LONG4 of 1 MB). Each is one line, exit 2, nothing
// written, in bounded memory; the bombs are built here, opcode by opcode.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliBin, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const PROTO = 0x80;
const [EMPTY_LIST, APPEND, MARK, TUPLE, LIST, BINGET, BINPUT, LONG4, STOP] = [
  0x5d, 0x61, 0x28, 0x74, 0x6c, 0x68, 0x71, 0x8b, 0x2e,
];

const times = (n: number, code: number) => Buffer.alloc(n, code);

function memoBomb(): Buffer {
  const parts = [Buffer.from([PROTO, 2, EMPTY_LIST, BINPUT, 0])];
  for (let i = 1; i <= 30; i++)
    parts.push(
      Buffer.from([
        MARK,
        ...Array(10)
          .fill([BINGET, i - 1])
          .flat(),
        LIST,
        BINPUT,
        i,
      ]),
    );
  parts.push(Buffer.from([STOP]));
  return Buffer.concat(parts);
}

function long4(n: number): Buffer {
  const head = Buffer.from([PROTO, 2, LONG4, 0, 0, 0, 0]);
  head.writeInt32LE(n, 3);
  const body = Buffer.alloc(n, 0x5a);
  return Buffer.concat([head, body, Buffer.from([STOP])]);
}

const cases: { name: string; bytes: () => Buffer; line: RegExp }[] = [
  {
    name: "a 100,000-deep list",
    bytes: () =>
      Buffer.concat([
        Buffer.from([PROTO, 2]),
        times(100_000, EMPTY_LIST),
        times(99_999, APPEND),
        Buffer.from([STOP]),
      ]),
    line: /^x\.pkl:byte 101001: expected a pickle nested at most 1000 deep, found a list nested 1001 deep$/,
  },
  {
    name: "a MARK-nested tuple",
    bytes: () =>
      Buffer.concat([
        Buffer.from([PROTO, 2]),
        times(100_000, MARK),
        times(100_000, TUPLE),
        Buffer.from([STOP]),
      ]),
    line: /^x\.pkl:byte 101002: expected a pickle nested at most 1000 deep, found a tuple nested 1001 deep$/,
  },
  {
    name: "a list that contains itself",
    bytes: () => Buffer.from([PROTO, 2, EMPTY_LIST, BINPUT, 0, BINGET, 0, APPEND, STOP]),
    line: /^x\.pkl: expected a pickle without cycles \(JSON cannot write one\), found a list that contains itself$/,
  },
  {
    name: "30 levels of lists of 10 memo references each",
    bytes: memoBomb,
    line: /^x\.pkl:byte 150: expected memo-shared values that, written out in full at each reference, add at most 2097452 values \(2 per byte read \+ 2097152\), found 2345671 more$/,
  },
  {
    name: "a LONG4 of 1 MB",
    bytes: () => long4(1 << 20),
    line: /^x\.pkl: expected ints of at most 4300 digits to write as JSON \(CPython's int_max_str_digits\), found an int of about 2525222 digits$/,
  },
];

describe("convkit convert on hostile pickles", () => {
  it.each(cases)("$name: one line, exit 2, nothing written, under 500 MiB", ({ bytes, line }) => {
    const dir = tempDir();
    const input = join(dir, "x.pkl");
    writeFileSync(input, bytes());
    // Peak RSS as the process itself sees it on exit (getrusage), written beside the input.
    const preload = join(dir, "rss.cjs");
    writeFileSync(
      preload,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(join(dir, "rss"))}, String(process.resourceUsage().maxRSS)));`,
    );
    const out = join(dir, "x.jsonl");
    const r = spawnSync(process.execPath, ["--require", preload, cliBin("convert"), "x.pkl", "-o", out], {
      cwd: dir,
      // Before the fix the memo bomb grew past 2.8 GB and the LONG4 ran for minutes: a hang fails.
      timeout: 60_000,
    });
    const stderr = r.stderr.toString();
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr.trimEnd()).toMatch(line);
    expect(r.status).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(["rss", "rss.cjs", "x.pkl"]);
    expect(Number(readFileSync(join(dir, "rss"), "utf8")) / 1024).toBeLessThan(500);
  });

  it("an int of 4300 digits is written as CPython's str() writes it", () => {
    const dir = tempDir();
    const input = join(dir, "big.pkl");
    // 10^4300 - 1 has 4300 digits (9s); -(10^4299) too: their bytes, little-endian two's complement.
    const bytesOf = (v: bigint) => {
      const n = Math.ceil((v < 0n ? -v : v).toString(2).length / 8) + 1;
      let x = BigInt.asUintN(8 * n, v);
      const b = Buffer.alloc(n);
      for (let i = 0; i < n; i++, x >>= 8n) b[i] = Number(x & 0xffn);
      return b;
    };
    const ints = [10n ** 4300n - 1n, -(10n ** 4299n)];
    const items = ints.map((v) => {
      const b = bytesOf(v);
      const head = Buffer.from([LONG4, 0, 0, 0, 0]);
      head.writeInt32LE(b.length, 1);
      return Buffer.concat([head, b]);
    });
    writeFileSync(input, Buffer.concat([Buffer.from([PROTO, 2, MARK]), ...items, Buffer.from([LIST, STOP])]));
    const r = spawnSync(process.execPath, [cliBin("convert"), input]);
    expect(r.stderr.toString()).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.toString())).toEqual(ints.map(String));
  });
});
