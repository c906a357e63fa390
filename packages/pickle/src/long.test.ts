// LONG1/LONG4 (little-endian two's complement) decoded in linear time, equal to CPython's ints on
// seeded random bytes and the boundaries; protocol 0's text ints held to CPython's 4300 digits.
import { cpuMs, python, requires, rng } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import * as op from "./opcodes.js";
import { loadPickle } from "./unpickle.js";
import { MAX_INT_DIGITS } from "./unpickle-values.js";
import type { PyValue } from "./values.js";

/** A LONG4 (or LONG1 when `short`) opcode holding `bytes`. */
function long(bytes: Uint8Array, short = false): Buffer {
  const head = short ? Buffer.from([op.LONG1, bytes.length]) : Buffer.alloc(5);
  if (!short) {
    head[0] = op.LONG4;
    head.writeInt32LE(bytes.length, 1);
  }
  return Buffer.concat([head, bytes]);
}

/** A pickle of a list of the ints stored in `longs` (LONG1 for the short ones, LONG4 for all). */
function listOf(longs: Uint8Array[]): Buffer {
  const items = longs.map((b, i) => long(b, b.length < 256 && i % 2 === 0));
  return Buffer.concat([
    Buffer.from([op.PROTO, 2, op.EMPTY_LIST, op.MARK]),
    ...items,
    Buffer.from([op.APPENDS, op.STOP]),
  ]);
}

/** Python's hex() of an int. */
const hex = (v: PyValue) => {
  if (typeof v !== "number" && typeof v !== "bigint") throw new Error(`not an int: ${String(v)}`);
  const neg = v < 0;
  return `${neg ? "-" : ""}0x${(neg ? -v : v).toString(16)}`;
};

/** Seeded random byte strings: every length up to 17, the LONG1/LONG4 edge, big ones; sign bytes forced. */
function randomLongs(seed: number): Uint8Array[] {
  const r = rng(seed);
  const lengths = [...Array.from({ length: 18 }, (_, i) => i), 31, 32, 33, 255, 256, 257, 1000, 4096, 70_001];
  const out: Uint8Array[] = [];
  for (const n of lengths)
    for (const top of [undefined, 0x00, 0x7f, 0x80, 0xff]) {
      const b = Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
      if (n > 0 && top !== undefined) b[n - 1] = top;
      out.push(b);
    }
  // Around ±2^53 (where numbers turn into BigInts) and the widths readIntLE takes (up to 6 bytes).
  for (const v of [
    2n ** 53n - 1n,
    2n ** 53n,
    2n ** 53n + 1n,
    -(2n ** 53n) + 1n,
    -(2n ** 53n),
    -(2n ** 53n) - 1n,
    2n ** 47n,
    -(2n ** 47n),
    -1n,
    0n,
  ])
    for (const n of [7, 8, 9]) {
      const b = new Uint8Array(n);
      let x = BigInt.asUintN(8 * n, v);
      for (let i = 0; i < n; i++, x >>= 8n) b[i] = Number(x & 0xffn);
      out.push(b);
    }
  return out;
}

requires("python3").describe("LONG1/LONG4 against CPython (python3)", () => {
  it("seeded random ints of every size, negatives and the boundaries decode as CPython decodes them", () => {
    const b = listOf([1, 2, 3].flatMap(randomLongs));
    const theirs = python("import pickle, sys\nfor v in pickle.load(sys.stdin.buffer): print(hex(v))", b)
      .trim()
      .split("\n");
    expect(theirs.length).toBeGreaterThan(400);
    expect((loadPickle(b) as PyValue[]).map(hex)).toEqual(theirs);
  });

  it(`text ints of ${MAX_INT_DIGITS} digits read as CPython reads them, one more digit is refused as CPython refuses it`, () => {
    const digits = `-9${"8".repeat(MAX_INT_DIGITS - 1)}`;
    const pickles = [`(I${digits}\nL${digits}L\nl.`, `I${digits}1\n.`, `L${digits}1L\n.`];
    // CPython on each pickle (one per line, as hex): the ints' hex, or "refused".
    const script = `import pickle, sys
for line in sys.stdin:
    try: print(" ".join(hex(v) for v in pickle.loads(bytes.fromhex(line))))
    except ValueError: print("refused")`;
    const theirs = python(script, pickles.map((p) => Buffer.from(p, "latin1").toString("hex")).join("\n"))
      .trim()
      .split("\n");
    expect(theirs.slice(1)).toEqual(["refused", "refused"]);
    expect((loadPickle(Buffer.from(pickles[0]!, "latin1")) as PyValue[]).map(hex).join(" ")).toBe(theirs[0]);
    for (const text of pickles.slice(1))
      expect(() => loadPickle(Buffer.from(text, "latin1"), "t.pkl")).toThrow(
        `t.pkl:byte 0: expected an int of at most ${MAX_INT_DIGITS} digits (CPython's int_max_str_digits), found ${MAX_INT_DIGITS + 1} digits`,
      );
  });
});

describe("LONG4 decoding time", () => {
  /** Median milliseconds of reading a LONG4 of `n` random bytes. */
  function fastest(n: number): Promise<number> {
    const r = rng(n);
    const b = Buffer.concat([
      Buffer.from([op.PROTO, 2]),
      long(Uint8Array.from({ length: n }, () => Math.floor(r() * 256))),
      Buffer.from([op.STOP]),
    ]);
    return cpuMs(() => loadPickle(b), 5);
  }

  it("is linear: 4x the bytes take at most 6x the time (byte-by-byte shifts took 16x, 1 MB minutes)", async () => {
    await fastest(1 << 16); // warm up
    const small = await fastest(1 << 18);
    const big = await fastest(1 << 20);
    expect(big / small).toBeLessThan(6);
  });

  it("zero bytes are 0, and a negative LONG4 length is refused", () => {
    expect(loadPickle(Buffer.from([op.PROTO, 2, op.LONG4, 0, 0, 0, 0, op.STOP]))).toBe(0);
    expect(loadPickle(Buffer.from([op.PROTO, 2, op.LONG1, 0, op.STOP]))).toBe(0);
    expect(() =>
      loadPickle(Buffer.from([op.PROTO, 2, op.LONG4, 0xff, 0xff, 0xff, 0xff, op.STOP]), "n.pkl"),
    ).toThrow("n.pkl:byte 2: expected a non-negative LONG4 length, found -1");
  });
});
