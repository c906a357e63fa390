// Differential tests: every fast path of the dict-tree scanner (the WebAssembly item kernel, whole
// leaves, items and branches at once, the opcode loop) and BranchReader (indexDictTree +
// readDictBranch) against loadPickle, the general reader, on random trees pickled by the package's
// writer and by a hand assembler of CPython's opcode streams (protocols 2-5, memo gets and puts of
// every width, framing), cut into random chunks. No ../shared and no Python needed (one extra
// test cross-checks CPython's own pickles when python3 is there).
import { python, requires, rng } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { indexDictTree, readDictBranch } from "./branch-index.js";
import { DictTreeScanner, UnsupportedShape } from "./dict-tree.js";
import {
  assemble,
  branchesOf,
  cpythonStyle,
  expectedLeaves,
  keyOf,
  leafLine,
  outsideScannerSubset,
  type Rng,
  randomChunks,
  randomStyle,
  randomTree,
  randomWant,
  type Style,
  type Tree,
  type TreeShape,
  toPy,
} from "./testdata/random-trees.js";
import { loadPickle } from "./unpickle.js";
import type { PyValue } from "./values.js";
import { dumpPickle } from "./writer.js";

function randomShape(r: Rng): TreeShape {
  return { depth: [2, 3, 3, 4][Math.floor(r() * 4)]!, evalShape: r() < 0.5, big: r() < 0.3 };
}

/** The scanner's leaves of `bytes` fed in `chunks`. */
function scan(chunks: readonly Uint8Array[], depth: number, want?: ReturnType<typeof randomWant>): string[] {
  const got: string[] = [];
  const s = new DictTreeScanner(
    "t.pkl",
    depth,
    (path, names, values, n) => got.push(leafLine(path.slice(0, depth), names, values, n)),
    want,
  );
  for (const c of chunks) s.feed(c);
  s.finish();
  return got;
}

/**
 * The scanner against loadPickle on `bytes`, which pickle `tree`: the general reader must give the
 * tree itself, and the scanner the leaves of what the general reader gives, all and a few per branch.
 */
function checkScanner(bytes: Buffer, tree: Tree, depth: number, r: Rng, label: string): void {
  const loaded = loadPickle(bytes, label) as Tree;
  same(treeLines(loaded), treeLines(tree), `${label}: loadPickle`);
  const all = expectedLeaves(loaded, depth);
  if (outsideScannerSubset(tree, depth)) {
    // Declined or read right, never misread.
    let got: string[] | undefined;
    try {
      got = scan(randomChunks(bytes, r), depth);
    } catch (e) {
      expect(e, label).toBeInstanceOf(UnsupportedShape);
    }
    if (got !== undefined) same(got, all, `${label}: every leaf`);
    return;
  }
  same(scan(randomChunks(bytes, r), depth), all, `${label}: every leaf`);
  const want = randomWant(loaded, depth, Math.floor(r() * 2 ** 32));
  same(
    scan(randomChunks(bytes, r), depth, want),
    expectedLeaves(loaded, depth, want),
    `${label}: wanted leaves`,
  );
}

/** indexDictTree + readDictBranch against loadPickle: every branch's path, and its dict read alone. */
async function checkBranches(bytes: Buffer, depth: number, r: Rng, label: string): Promise<void> {
  const loaded = loadPickle(bytes, label) as Tree;
  // The index is the scanner's (it declines those trees: see checkScanner).
  if (outsideScannerSubset(loaded, depth)) return;
  const chunks = randomChunks(bytes, r);
  const index = await indexDictTree(
    {
      name: label,
      chunks: (async function* () {
        yield* chunks;
      })(),
    },
    depth,
  );
  const expected = branchesOf(loaded, depth);
  same(
    index.paths.map(keyOf),
    expected.map((b) => keyOf(b.path)),
    `${label}: branch paths`,
  );
  for (let i = 0; i < expected.length; i++) {
    const at = index.offsets[i]!;
    // From the branch to the end of the stream, or to the next branch: it stops by itself.
    const to = r() < 0.5 || i + 1 === expected.length ? bytes.length : index.offsets[i + 1]!;
    const got = readDictBranch(bytes.subarray(at, to), index, index.memoLengths[i]!, label, at);
    const want = expected[i]!.branch;
    same(flat(got), flat(want), `${label}: branch ${keyOf(expected[i]!.path)} at ${at}`);
  }
}

/**
 * Two lists of lines equal: the first difference is what fails (a whole-list diff of thousands of
 * lines is slow to compute and to read).
 */
function same(got: readonly string[], want: readonly string[], label: string): void {
  if (got.length === want.length && got.every((g, i) => g === want[i])) return;
  const i = got.findIndex((g, j) => g !== want[j]);
  const at = i < 0 ? want.length : i;
  const where = `${label}: line ${at} of ${got.length} (expected ${want.length} lines)`;
  expect(got[at], `${where}\n  got:  ${got[at]}\n  want: ${want[at]}\n`).toBe(want[at]);
}

/** Every dict and leaf item of a tree as a line: key paths with their types, values exact. */
function treeLines(t: Tree, path: PyValue[] = [], out: string[] = []): string[] {
  out.push(`${keyOf(path)} {${t.size}}`);
  for (const [k, v] of t) {
    if (typeof v === "number") out.push(leafLine([...path, k], [], [], 0) + num(v));
    else treeLines(v as Tree, [...path, k], out);
  }
  return out;
}

const num = (v: number) => (Object.is(v, -0) ? "-0" : String(v));

/** A branch as text, order and key types kept. */
function flat(b: ReadonlyMap<PyValue, ReadonlyMap<PyValue, unknown>>): string[] {
  return [...b].map(([k, leaf]) =>
    leafLine([k], [...leaf.keys()] as string[], [...leaf.values()] as number[], leaf.size),
  );
}

describe("dict-tree scanner against loadPickle (random trees, seeded)", () => {
  it("pickled by dumpPickle: protocol 4, frames, MEMOIZE, equal strings memoized once (seeds 1-40)", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      const shape = randomShape(r);
      const tree = randomTree(r, shape);
      checkScanner(dumpPickle(toPy(tree)), tree, shape.depth, r, `dumpPickle seed ${seed}`);
    }
  });

  it("hand-assembled CPython streams: protocols 2-5, BINPUT/LONG_BINPUT/MEMOIZE, every str and int width, frames (seeds 101-220)", () => {
    for (let seed = 101; seed <= 220; seed++) {
      const r = rng(seed);
      const shape = randomShape(r);
      const tree = randomTree(r, shape);
      const style = randomStyle(r);
      checkScanner(assemble(tree, style, r), tree, shape.depth, r, `assembled seed ${seed} ${fmt(style)}`);
    }
  });

  it("eval-dict-shaped trees (two names per leaf, the WebAssembly kernel's shape) across every protocol, big chunks (seeds 301-330)", () => {
    for (let seed = 301; seed <= 330; seed++) {
      const r = rng(seed);
      const tree = randomTree(r, { depth: 3, evalShape: true, big: true });
      const style = r() < 0.5 ? cpythonStyle(([2, 3, 4, 5] as const)[seed % 4]!) : randomStyle(r);
      checkScanner(assemble(tree, style, r), tree, 3, r, `eval-shaped seed ${seed} ${fmt(style)}`);
    }
  });
});

describe("indexDictTree + readDictBranch against loadPickle (random trees, seeded)", () => {
  it("every branch found, and read alone from its offset, equals the general reader's (seeds 401-520)", async () => {
    for (let seed = 401; seed <= 520; seed++) {
      const r = rng(seed);
      const shape = randomShape(r);
      const tree = randomTree(r, shape);
      const style = randomStyle(r);
      const bytes = seed % 4 === 0 ? dumpPickle(toPy(tree)) : assemble(tree, style, r);
      await checkBranches(
        bytes,
        shape.depth,
        r,
        `seed ${seed} ${seed % 4 === 0 ? "dumpPickle" : fmt(style)}`,
      );
    }
  });
});

requires("python3").describe("scanner and BranchReader on CPython's own pickles (python3)", () => {
  it("random trees pickled by CPython with protocols 2-5 (seeds 601-612)", async () => {
    const cases: { tree: Tree; depth: number }[] = [];
    for (let seed = 601; seed <= 612; seed++) {
      const r = rng(seed);
      const shape = randomShape(r);
      cases.push({ tree: randomTree(r, shape), depth: shape.depth });
    }
    // Keys and names as tagged JSON; equal strings made one object (as in an eval dict) by a cache.
    const json = JSON.stringify(cases.map((c) => toJson(c.tree)));
    const script = `
import sys, json, pickle, struct
cache = {}
def val(v):
    if isinstance(v, dict): return struct.unpack(">d", bytes.fromhex(v["f"]))[0]
    t, x = v
    return cache.setdefault(x, x) if t == "s" else x
def tree(items): return {val(k): (tree(v) if isinstance(v, list) else val(v)) for k, v in items}
for t in json.load(sys.stdin):
    d = tree(t)
    print(" ".join(pickle.dumps(d, protocol=p).hex() for p in range(2, 6)))
`;
    const lines = python(script, json).trim().split("\n");
    for (const [i, line] of lines.entries()) {
      const { tree, depth } = cases[i]!;
      for (const [p, hex] of line.split(" ").entries()) {
        const r = rng(i * 10 + p);
        const label = `CPython tree ${601 + i} protocol ${p + 2}`;
        const bytes = Buffer.from(hex, "hex");
        checkScanner(bytes, tree, depth, r, label);
        await checkBranches(bytes, depth, r, label);
      }
    }
  }, 120_000);
});

function toJson(t: Tree | ReadonlyMap<string, number>): unknown {
  const tag = (k: PyValue) => (typeof k === "string" ? ["s", k] : ["i", k]);
  return [...t].map(([k, v]) => {
    if (typeof v !== "number") return [tag(k), toJson(v)];
    const b = Buffer.alloc(8);
    b.writeDoubleBE(v);
    return [tag(k), { f: b.toString("hex") }];
  });
}

function fmt(s: Style): string {
  return JSON.stringify(s);
}
