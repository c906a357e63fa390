// Hostile pickles of a few hundred bytes (issue 39, item 4), built opcode by opcode here: nesting,
// cycles and memo sharing refused with one line before anyone walks the value; what is within the
// limits still reads as CPython reads it (shared entries decoded once and shared).
import { InputError } from "@convkit/io";
import { describe, expect, it } from "vitest";
import { MAX_DEPTH } from "./guards.js";
import * as op from "./opcodes.js";
import { loadPickle, Unpickler } from "./unpickle.js";
import { PyTuple, type PyValue } from "./values.js";

const PROTO2 = [op.PROTO, 2];
const bytes = (...parts: (number | number[] | Buffer)[]): Buffer =>
  Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(typeof p === "number" ? [p] : p))));
const times = (n: number, ...codes: number[]): Buffer => Buffer.from(Array(n).fill(codes).flat());
const get = (i: number) => [op.BINGET, i];
const put = (i: number) => [op.BINPUT, i];

/** A list nested `n` deep: `[[[...]]]` as EMPTY_LIST × n, APPEND × (n - 1). */
const deepList = (n: number) => bytes(PROTO2, times(n, op.EMPTY_LIST), times(n - 1, op.APPEND), op.STOP);

/** The error `load` throws (fails the test when it throws none, or something else). */
function thrown(load: () => unknown): InputError {
  try {
    load();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("expected an InputError, the pickle was read");
}

/** The same pickle fed in chunks of every size given: the same message (the offset is absolute). */
function streamedMessage(b: Buffer, size: number): string {
  const u = new Unpickler("s.pkl");
  return thrown(() => {
    for (let i = 0; i < b.length; i += size) u.feed(b.subarray(i, i + size));
    u.finish();
  }).message;
}

const DEEPER = `expected a pickle nested at most ${MAX_DEPTH} deep`;

describe("nesting", () => {
  it("a 100,000-deep list is refused at the byte where it gets too deep, whole or streamed", () => {
    const b = deepList(100_000);
    // The APPEND that makes a list 1001 deep: after PROTO and the 100,000 EMPTY_LISTs, the 1000th.
    const at = 2 + 100_000 + MAX_DEPTH - 1;
    const msg = `deep.pkl:byte ${at}: ${DEEPER}, found a list nested ${MAX_DEPTH + 1} deep`;
    expect(thrown(() => loadPickle(b, "deep.pkl")).message).toBe(msg);
    expect(streamedMessage(b, 4096)).toBe(msg.replace("deep.pkl", "s.pkl"));
  });

  it("a MARK-nested tuple of 100,000 levels is refused the same way", () => {
    const b = bytes(PROTO2, times(100_000, op.MARK), times(100_000, op.TUPLE), op.STOP);
    expect(thrown(() => loadPickle(b, "t.pkl")).message).toBe(
      `t.pkl:byte ${2 + 100_000 + MAX_DEPTH}: ${DEEPER}, found a tuple nested ${MAX_DEPTH + 1} deep`,
    );
  });

  it("dicts, tuples, frozensets and sets count as levels as lists do", () => {
    // Each level holds the one below: {0: frozenset({(x,)})}, as TUPLE1, FROZENSET, SETITEM.
    const level = (inner: Buffer) =>
      bytes(op.EMPTY_DICT, op.BININT1, 0, op.MARK, inner, op.TUPLE1, op.FROZENSET, op.SETITEM);
    let v: Buffer = Buffer.from([op.EMPTY_SET]);
    for (let i = 0; i < 333; i++) v = level(v);
    // 333 × 3 + 1 = 1000 levels: read; one more dict makes 1001.
    const ok = loadPickle(bytes(PROTO2, v, op.STOP));
    expect(ok).toBeInstanceOf(Map);
    const deeper = bytes(PROTO2, op.EMPTY_DICT, op.BININT1, 1, v, op.SETITEM, op.STOP);
    expect(thrown(() => loadPickle(deeper, "d.pkl")).message).toMatch(
      new RegExp(`^d\\.pkl:byte \\d+: ${DEEPER}, found a dict nested ${MAX_DEPTH + 1} deep$`),
    );
  });

  it(`${MAX_DEPTH} levels read (CPython's json.dumps stops there too), ${MAX_DEPTH + 1} do not`, () => {
    let v = loadPickle(deepList(MAX_DEPTH)) as PyValue[];
    let depth = 1;
    while (v.length > 0) [v, depth] = [v[0] as PyValue[], depth + 1];
    expect(depth).toBe(MAX_DEPTH);
    expect(() => loadPickle(deepList(MAX_DEPTH + 1))).toThrow(DEEPER);
  });

  it("a list filled after it was nested, through the memo, is measured once the pickle is read", () => {
    // L = [] is put in the memo, nested 999 deep inside a chain, then fetched back and given a
    // list: 1001 levels that no single opcode shows (the stack only saw L empty).
    const b = bytes(
      PROTO2,
      times(MAX_DEPTH - 1, op.EMPTY_LIST),
      op.EMPTY_LIST,
      put(0),
      times(MAX_DEPTH - 1, op.APPEND),
      get(0),
      op.EMPTY_LIST,
      op.APPEND,
      op.POP,
      op.STOP,
    );
    expect(thrown(() => loadPickle(b, "m.pkl")).message).toBe(
      `m.pkl: ${DEEPER}, found a list nested ${MAX_DEPTH + 1} deep`,
    );
  });
});

describe("cycles", () => {
  it("a list that contains itself (memo get, or DUP) is refused with one line", () => {
    const viaMemo = bytes(PROTO2, op.EMPTY_LIST, put(0), get(0), op.APPEND, op.STOP);
    expect(thrown(() => loadPickle(viaMemo, "self.pkl")).message).toBe(
      "self.pkl: expected a pickle without cycles (JSON cannot write one), found a list that contains itself",
    );
    const viaDup = bytes(PROTO2, op.EMPTY_LIST, op.DUP, op.APPEND, op.STOP);
    expect(thrown(() => loadPickle(viaDup, "dup.pkl")).message).toBe(
      "dup.pkl: expected a pickle without cycles (JSON cannot write one), found a list that contains itself",
    );
    const dict = bytes(PROTO2, op.EMPTY_DICT, put(0), op.BININT1, 1, get(0), op.SETITEM, op.STOP);
    expect(thrown(() => loadPickle(dict, "d.pkl")).message).toBe(
      "d.pkl: expected a pickle without cycles (JSON cannot write one), found a dict that contains itself",
    );
  });

  it("a cycle through several containers names how far down it closes", () => {
    // a = [b], b = [(a,)]: a contains itself three levels down.
    const b = bytes(
      PROTO2,
      op.EMPTY_LIST,
      put(0),
      op.EMPTY_LIST,
      get(0),
      op.TUPLE1,
      op.APPEND,
      op.APPEND,
      op.STOP,
    );
    expect(thrown(() => loadPickle(b, "c.pkl")).message).toBe(
      "c.pkl: expected a pickle without cycles (JSON cannot write one), found a list that contains itself 3 levels down",
    );
  });
});

describe("memo sharing", () => {
  /** 30 levels, each a list of 10 memo references to the level below: 10^30 values written out. */
  const memoBomb = (levels: number, refs: number) => {
    const parts: (number | number[] | Buffer)[] = [PROTO2, op.EMPTY_LIST, put(0)];
    for (let i = 1; i <= levels; i++) {
      parts.push(op.MARK);
      for (let j = 0; j < refs; j++) parts.push(get(i - 1));
      parts.push(op.LIST, put(i));
    }
    parts.push(op.STOP);
    return bytes(...parts);
  };

  it("30 levels of 10 references each are refused at once, not written out", () => {
    const b = memoBomb(30, 10);
    expect(b.length).toBeLessThan(800);
    // Refused at the reference that passes the budget (level 7: 2,345,671 values written again).
    expect(thrown(() => loadPickle(b, "bomb.pkl")).message).toBe(
      "bomb.pkl:byte 150: expected memo-shared values that, written out in full at each reference, add at most 2097452 values (2 per byte read + 2097152), found 2345671 more",
    );
  });

  it("a shared entry within the budget is decoded once and shared, as CPython's memo does", () => {
    const v = loadPickle(memoBomb(5, 10)) as PyValue[][];
    expect(v).toHaveLength(10);
    expect(v[0]).toBe(v[9]);
    expect(v[0]![0]).toBe(v[9]![9]);
  });

  it("set(list) copying a list's items counts as sharing them (no exponential walk)", () => {
    // Level i: (set(L), L) with L = [level i - 1], L fetched back from the memo: level i - 1 is
    // reachable twice without ever being fetched itself. 60 levels: 2^60 copies of the bottom.
    const SET = Buffer.from("c__builtin__\nset\n", "latin1");
    const n = 60;
    const b = bytes(
      PROTO2,
      ...Array.from({ length: n }, () => bytes(SET, op.MARK)),
      op.NONE,
      ...Array.from({ length: n }, (_, i) => bytes(op.LIST, put(i), op.TUPLE1, op.REDUCE, get(i), op.TUPLE2)),
      op.STOP,
    );
    // 4 · 2^60 values written out, from a few hundred: refused once read (an exponential walk would never end).
    expect(thrown(() => loadPickle(b, "sets.pkl")).message).toMatch(
      /^sets\.pkl: expected memo-shared values that, written out in full at each reference, add at most \d+ values \(2 per byte read \+ 2097152\), found 4\.61e\+18 more$/,
    );
    const small = loadPickle(
      bytes(PROTO2, SET, op.MARK, op.NONE, op.LIST, put(0), op.TUPLE1, op.REDUCE, get(0), op.TUPLE2, op.STOP),
    );
    expect(small).toEqual(new PyTuple([new Set([null]), [null]]));
  });
});
