// Random pickled dict trees for the differential tests: the trees, two ways of pickling them (the
// package's own writer, and a hand assembler of the opcode streams CPython writes, protocols 2-5,
// which the writer never produces), random chunkings and the leaves a scan must report.
import * as op from "../opcodes.js";
import { PyFloat, type PyValue } from "../values.js";

/** A dict tree: dicts of dicts down to the leaves, which map names to floats. */
export type Tree = Map<PyValue, Tree | Leaf>;
export type Leaf = Map<string, number>;
export type Rng = () => number;

const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const NAMES = ["no_answer", "with_answer", "x", "ndcg@3", "naïve", "𝄞", "n".repeat(300)];
const FLOATS = [0, -0, 1, -1, 0.5, 1e-300, -1e300, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53];

function randomFloat(r: Rng): number {
  const k = r();
  if (k < 0.2) return pick(r, FLOATS);
  if (k < 0.3) return int(r, -1000, 1000);
  return (r() - 0.5) * 10 ** int(r, -5, 5);
}

/** A str or int key; strings repeat across dicts (so pickles refer to them through the memo). */
function randomKey(r: Rng): PyValue {
  const k = r();
  if (k < 0.55) return `Q${String(int(r, 0, 60)).padStart(5, "0")}`;
  if (k < 0.62) return pick(r, ["MAX", "MIN", "é-clé", "", "k".repeat(int(r, 250, 300))]);
  if (k < 0.75) return int(r, 0, 255);
  if (k < 0.85) return int(r, 256, 65_535);
  if (k < 0.93) return int(r, 65_536, 2 ** 31 - 1);
  return int(r, -(2 ** 31), -1);
}

function keysFor(n: number, str: () => PyValue): PyValue[] {
  const seen = new Set<PyValue>();
  while (seen.size < n) seen.add(str());
  return [...seen];
}

export interface TreeShape {
  /** Levels down to the leaves (the scanner's `depth`): 2 to 4. */
  depth: number;
  /** Leaves of exactly two names (ClariQ's eval dicts), the shape of every fast path. */
  evalShape: boolean;
  /** Allow branches of 1000 items and more (batches of 1000 and a single SETITEM after them). */
  big: boolean;
}

/**
 * A random tree. Dicts above the leaves have no items or at least two (a dict of one item above
 * the leaves is outside the scanner's subset: see DictTreeScanner); leaves any number up to 64.
 */
export function randomTree(r: Rng, shape: TreeShape): Tree {
  // At most one big branch per tree: enough for the batches, and the tests stay quick.
  let bigLeft = shape.big ? 1 : 0;
  const level = (d: number): Tree => {
    const t: Tree = new Map();
    if (d === shape.depth - 1) {
      // A branch: its items are the leaves.
      const big = bigLeft > 0 && r() < 0.3;
      if (big) bigLeft--;
      const n = big ? pick(r, [1000, 1001, 1999, 2001]) : r() < 0.1 ? 0 : int(r, 2, 12);
      const keys =
        n > 100
          ? Array.from({ length: n }, (_, i) => (r() < 0.8 ? `Q${i}` : 100_000 + i))
          : keysFor(n, () => randomKey(r));
      // A big branch's leaves have the eval-dict shape (sizes stay in tens of kB).
      for (const k of keys) t.set(k, randomLeaf(r, shape.evalShape || big));
      return t;
    }
    const n = d === 0 ? int(r, 2, 4) : r() < 0.1 ? 0 : int(r, 2, 6);
    for (const k of keysFor(n, () => randomKey(r))) t.set(k, level(d + 1));
    return t;
  };
  return level(0);
}

function randomLeaf(r: Rng, evalShape: boolean): Leaf {
  const names =
    evalShape || r() < 0.5
      ? ["no_answer", "with_answer"]
      : keysFor(
          pick(r, [0, 1, 1, 3, 5, int(r, 2, 64)]),
          () => pick(r, NAMES) + (r() < 0.5 ? "" : int(r, 0, 9)),
        );
  return new Map(names.map((n) => [n as string, randomFloat(r)]));
}

/** The tree as dumpPickle takes it (floats as PyFloat, so that 1.0 stays a float). */
export function toPy(t: Tree | Leaf): PyValue {
  return new Map<PyValue, PyValue>(
    [...t].map(([k, v]) => [k, typeof v === "number" ? new PyFloat(v) : toPy(v)]),
  );
}

/** How {@link assemble} writes a tree: each a choice CPython makes one way or another. */
export interface Style {
  proto: 2 | 3 | 4 | 5;
  /** Protocol 4+: FRAME opcodes, each frame about this many bytes (0: no framing). */
  frame: number;
  /** Chance that a string seen before is the same object (a memo get) rather than a new one. */
  reuse: number;
  /** Chance that a value gets no memo put at all (Pickler.fast). */
  noPut: number;
  /** Chance of LONG_BINPUT / LONG_BINGET where BINPUT / BINGET would do. */
  longMemo: number;
  /** Protocol 4+: chance of BINPUT / LONG_BINPUT instead of MEMOIZE. */
  binputIn4: number;
  /** Chance of a wider str or int opcode than the smallest that fits. */
  wide: number;
  /** Protocol 4+: whether a wide str may be BINUNICODE8. */
  unicode8: boolean;
}

/** Wide strs may be BINUNICODE8 (CPython writes it for strs of 4 GiB and more; every reader takes it). */
const UNICODE8 = true;

export function randomStyle(r: Rng): Style {
  const proto = pick(r, [2, 3, 4, 5] as const);
  return {
    proto,
    frame: proto >= 4 && r() < 0.7 ? pick(r, [1, 50, 700, 65_536]) : 0,
    reuse: pick(r, [1, 1, 0.7, 0]),
    noPut: pick(r, [0, 0, 0.2]),
    longMemo: pick(r, [0, 0, 0.3, 1]),
    binputIn4: pick(r, [0, 0, 0.3]),
    wide: pick(r, [0, 0, 0.3]),
    unicode8: UNICODE8,
  };
}

/** The style of CPython's own pickle.dumps at `proto`. */
export function cpythonStyle(proto: Style["proto"]): Style {
  return {
    proto,
    frame: proto >= 4 ? 65_536 : 0,
    reuse: 1,
    noPut: 0,
    longMemo: 0,
    binputIn4: 0,
    wide: 0,
    unicode8: false,
  };
}

/**
 * The opcode stream of `tree` as a CPython pickler would write it in `style`: EMPTY_DICT and a memo
 * put per dict, its items in batches of 1000 (MARK ... SETITEMS, a batch of one as SETITEM),
 * strings memoized (a string seen before a memo get when it is "the same object"), BINFLOAT leaves.
 */
export function assemble(tree: Tree, style: Style, r: Rng): Buffer {
  let out = Buffer.alloc(1 << 16);
  let len = 0;
  const opStarts: number[] = [];
  let memoLen = 0;
  const strMemo = new Map<string, number>();
  const room = (n: number) => {
    if (len + n <= out.length) return;
    const bigger = Buffer.alloc(Math.max(2 * out.length, len + n));
    out.copy(bigger, 0, 0, len);
    out = bigger;
  };
  const byte = (b: number) => {
    room(1);
    out[len++] = b;
  };
  const u32 = (v: number) => {
    room(4);
    out.writeUInt32LE(v >>> 0, len);
    len += 4;
  };
  const begin = (code: number) => {
    opStarts.push(len);
    byte(code);
  };
  const put = (): number => {
    const idx = memoLen++;
    if (style.proto >= 4 && r() >= style.binputIn4) begin(op.MEMOIZE);
    else if (idx < 256 && r() >= style.longMemo) {
      begin(op.BINPUT);
      byte(idx);
    } else {
      begin(op.LONG_BINPUT);
      u32(idx);
    }
    return idx;
  };
  const get = (idx: number) => {
    if (idx < 256 && r() >= style.longMemo) {
      begin(op.BINGET);
      byte(idx);
    } else {
      begin(op.LONG_BINGET);
      u32(idx);
    }
  };
  const str = (s: string) => {
    const seen = strMemo.get(s);
    if (seen !== undefined && r() < style.reuse) return get(seen);
    const n = Buffer.byteLength(s, "utf8");
    const wide = r() < style.wide;
    if (n < 256 && !wide) {
      begin(op.SHORT_BINUNICODE);
      byte(n);
    } else if (style.proto >= 4 && style.unicode8 && wide && r() < 0.5) {
      begin(op.BINUNICODE8);
      u32(n);
      u32(0);
    } else {
      begin(op.BINUNICODE);
      u32(n);
    }
    room(n);
    len += out.write(s, len, "utf8");
    if (r() < style.noPut) strMemo.delete(s);
    else strMemo.set(s, put());
  };
  const int = (v: number) => {
    const wide = r() < style.wide;
    if (v >= 0 && v < 256 && !wide) {
      begin(op.BININT1);
      byte(v);
    } else if (v >= 0 && v < 65_536 && !(wide && r() < 0.5)) {
      begin(op.BININT2);
      byte(v & 255);
      byte(v >>> 8);
    } else {
      begin(op.BININT);
      u32(v);
    }
  };
  const dict = (d: Tree | Leaf) => {
    begin(op.EMPTY_DICT);
    if (r() >= style.noPut) put();
    const items = [...d];
    // CPython's _batch_setitems.
    for (let i = 0; ; i += 1000) {
      const batch = items.slice(i, i + 1000);
      if (batch.length > 1) begin(op.MARK);
      for (const [k, v] of batch) {
        if (typeof k === "string") str(k);
        else int(k as number);
        if (typeof v === "number") {
          begin(op.BINFLOAT);
          room(8);
          len = out.writeDoubleBE(v, len);
        } else dict(v);
      }
      if (batch.length > 1) begin(op.SETITEMS);
      else if (batch.length === 1) begin(op.SETITEM);
      if (batch.length < 1000) break;
    }
  };
  dict(tree);
  begin(op.STOP);
  const body = out.subarray(0, len);
  const head = Buffer.from([op.PROTO, style.proto]);
  if (style.frame === 0) return Buffer.concat([head, body]);
  // Frames hold whole opcodes; a frame is closed at the first opcode boundary past its target.
  const parts: Buffer[] = [head];
  let from = 0;
  for (let i = 1; i <= opStarts.length; i++) {
    const at = i < opStarts.length ? opStarts[i]! : body.length;
    if (at - from >= style.frame || i === opStarts.length) {
      const h = Buffer.alloc(9);
      h[0] = op.FRAME;
      h.writeBigUInt64LE(BigInt(at - from), 1);
      parts.push(h, body.subarray(from, at));
      from = at;
    }
  }
  return Buffer.concat(parts);
}

/** `bytes` cut at random places: single bytes, short runs, and chunks beyond the scanner's stitch. */
export function randomChunks(bytes: Buffer, r: Rng): Uint8Array[] {
  // Byte by byte only where that stays quick.
  const mode = pick(r, ["whole", bytes.length < 40_000 ? "tiny" : "small", "small", "big", "mixed"] as const);
  if (mode === "whole") return [bytes];
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; ) {
    const m = mode === "mixed" ? pick(r, ["tiny", "small", "big"] as const) : mode;
    const n = m === "tiny" ? int(r, 1, 16) : m === "small" ? int(r, 17, 700) : int(r, 8200, 30_000);
    const c = bytes.subarray(i, i + n);
    // Some chunks not Buffers (the scanner wraps plain Uint8Arrays itself).
    out.push(r() < 0.2 ? new Uint8Array(c) : c);
    i += n;
  }
  return out;
}

/**
 * Whether a dict above the leaves ends in a batch of one after full batches of 1000 (1001, 2001
 * items...): `key dict SETITEM` there cannot be told from the parent's next item until later,
 * and the scanner declines it (UnsupportedShape) as it does a dict of one item.
 */
export function outsideScannerSubset(tree: Tree, depth: number): boolean {
  const walk = (t: Tree, d: number): boolean =>
    d < depth &&
    ((t.size > 1000 && t.size % 1000 === 1) || [...t.values()].some((v) => walk(v as Tree, d + 1)));
  return walk(tree, 0);
}

/** Which leaves of a branch to report, as a scanner's caller may ask (see WantedLeaves). */
export type Want = (branch: readonly PyValue[]) => ReadonlySet<PyValue> | readonly PyValue[] | undefined;

/** A random but fixed answer per branch: all, a few of its keys (a set or a list, small or not), none. */
export function randomWant(tree: Tree, depth: number, seed: number): Want {
  const same = ["MIN", 7, "Q00003"];
  return (branch) => {
    const path = branch.slice(0, depth - 1);
    let h = seed;
    for (const c of keyOf(path)) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    const rr = (() => {
      let s = h;
      return () => {
        s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
        return s / 2 ** 32;
      };
    })();
    const k = rr();
    if (k < 0.3) return undefined;
    if (k < 0.4) return same;
    let t: Tree | Leaf | undefined = tree;
    for (const p of path) t = (t as Tree).get(p);
    const keys = [...(t as Tree).keys()].filter(() => rr() < 0.4);
    keys.push("Q99999", -5);
    if (k < 0.55) return new Set(keys.slice(0, 4));
    if (k < 0.7) return new Set(keys);
    if (k < 0.8) return [];
    if (k < 0.9) return keys;
    return [...keys, ...Array.from({ length: 80 }, (_, i) => `absent${i}`)];
  };
}

/** A path's keys as text, 1 and "1" apart. */
export function keyOf(path: readonly PyValue[]): string {
  return path.map((k) => (typeof k === "string" ? JSON.stringify(k) : String(k))).join("/");
}

const num = (v: number) => (Object.is(v, -0) ? "-0" : String(v));

/** One reported leaf as text: its path, then its names and values. */
export function leafLine(
  path: readonly PyValue[],
  names: readonly string[],
  values: ArrayLike<number>,
  n: number,
) {
  const items = Array.from({ length: n }, (_, i) => `${names[i]}=${num(values[i]!)}`);
  return `${keyOf(path)} ${items.join(",")}`;
}

/** The leaves a scan of `tree` must report, in stream order (an empty leaf reports nothing). */
export function expectedLeaves(tree: Tree, depth: number, want?: Want): string[] {
  const out: string[] = [];
  const walk = (t: Tree, path: PyValue[]) => {
    const w = path.length === depth - 1 && want ? want(path) : undefined;
    for (const [k, v] of t) {
      if (path.length < depth - 1) {
        walk(v as Tree, [...path, k]);
        continue;
      }
      const leaf = v as Leaf;
      if (leaf.size === 0) continue;
      if (w !== undefined && !(Array.isArray(w) ? w.includes(k) : (w as ReadonlySet<PyValue>).has(k)))
        continue;
      out.push(leafLine([...path, k], [...leaf.keys()], [...leaf.values()], leaf.size));
    }
  };
  walk(tree, []);
  return out;
}

/** Every branch (dict one level above the leaves) with its key path, in stream order. */
export function branchesOf(tree: Tree, depth: number): { path: PyValue[]; branch: Tree }[] {
  const out: { path: PyValue[]; branch: Tree }[] = [];
  const walk = (t: Tree, path: PyValue[]) => {
    if (path.length === depth - 1) {
      out.push({ path, branch: t });
      return;
    }
    for (const [k, v] of t) walk(v as Tree, [...path, k]);
  };
  walk(tree, []);
  return out;
}
