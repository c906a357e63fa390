import { rng } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { indexDictTree, readDictBranch } from "./branch-index.js";
import { scanDictTree } from "./dict-tree.js";
import { PyFloat, type PyValue } from "./values.js";
import { dumpPickle } from "./writer.js";

const source = (bytes: Uint8Array) => ({
  name: "t.pkl",
  chunks: (async function* () {
    // Small chunks: offsets must be stream offsets, not chunk offsets.
    for (let i = 0; i < bytes.length; i += 97) yield bytes.subarray(i, i + 97);
  })(),
});

type Tree = Map<PyValue, Map<PyValue, Map<PyValue, Map<string, number>>>>;

function pickled(t: Tree): Uint8Array {
  const toPy = (m: Map<PyValue, unknown>): Map<PyValue, PyValue> =>
    new Map(
      [...m].map(([k, v]) => [k, typeof v === "number" ? new PyFloat(v) : toPy(v as Map<PyValue, unknown>)]),
    );
  return dumpPickle(toPy(t as Map<PyValue, unknown>));
}

/**
 * Branches of the shapes CPython writes: a leaf of one name (SETITEM), > 1000 items (batches and a
 * last single item), exactly 1000, int and str keys, empty. (A one-item dict above the leaves is
 * outside the scanner's subset: see the last test.)
 */
function shapes(): Tree {
  const leaf = (x: number, names = ["no_answer", "with_answer"]) =>
    new Map(names.map((n, i) => [n, x + i / 10]));
  const t: Tree = new Map();
  const a = new Map<PyValue, Map<PyValue, Map<string, number>>>();
  a.set(
    1,
    new Map([
      ["Q1", leaf(1)],
      ["Q3", leaf(1.5)],
    ]),
  );
  a.set(
    2,
    new Map([
      ["Q1", leaf(2, ["with_answer"])],
      ["Q2", leaf(3)],
    ]),
  ); // a leaf of one name
  a.set("F0001", new Map(Array.from({ length: 2001 }, (_, i) => [`Q${i}`, leaf(i)]))); // batches + a single
  a.set(3, new Map(Array.from({ length: 1000 }, (_, i) => [i, leaf(i)]))); // exactly one full batch, int keys
  a.set(4, new Map()); // empty
  a.set(
    5,
    new Map([
      ["Q1", leaf(5)],
      ["MIN", leaf(0)],
      ["MAX", leaf(9)],
    ]),
  );
  t.set("NDCG1", a);
  t.set(
    "P1",
    new Map([
      [
        1,
        new Map([
          ["Q2", leaf(7)],
          ["MIN", leaf(0)],
        ]),
      ],
      [
        9,
        new Map([
          ["Q2", leaf(8)],
          ["MIN", leaf(0)],
        ]),
      ],
    ]),
  );
  return t;
}

describe("indexDictTree + readDictBranch", () => {
  it("every branch decoded from its own bytes equals the tree (single items, batches, int keys, empty)", async () => {
    const t = shapes();
    const bytes = pickled(t);
    const index = await indexDictTree(source(bytes), 3);
    const expected = [...t].flatMap(([m, cs]) => [...cs].map(([c, qs]) => ({ path: [m, c], qs })));
    expect(index.paths).toEqual(expected.map((e) => e.path));
    for (let i = 0; i < index.paths.length; i++) {
      // The bytes from the branch on to the end: it must stop by itself.
      const got = readDictBranch(bytes.subarray(index.offsets[i]!), index, index.memoLengths[i]!, "t.pkl");
      expect(got).toEqual(expected[i]!.qs);
    }
  });

  it("a random tree: branches read alone agree with the full streaming scan", async () => {
    const r = rng(11);
    const t: Tree = new Map();
    for (const m of ["MRR100", "NDCG3", "P1"]) {
      const cs = new Map<PyValue, Map<PyValue, Map<string, number>>>();
      for (let c = 0; c < 60; c++) {
        const qs = new Map<PyValue, Map<string, number>>();
        const n = 2 + Math.floor(r() * 6);
        for (let q = 0; q < n; q++)
          qs.set(
            `Q${q * 5 + Math.floor(r() * 5)}`,
            new Map([
              ["no_answer", r()],
              ["with_answer", r()],
            ]),
          );
        cs.set(2000 + c * 7, qs);
      }
      t.set(m, cs);
    }
    const bytes = pickled(t);
    const full = new Map<string, [PyValue, number, number][]>();
    await scanDictTree(source(bytes), 3, (path, names, values, n) => {
      const k = `${path[0]}\t${path[1]}`;
      const l = full.get(k) ?? [];
      const v = new Map(names.slice(0, n).map((x, i) => [x, values[i]!]));
      l.push([path[2]!, v.get("no_answer")!, v.get("with_answer")!]);
      full.set(k, l);
    });
    const index = await indexDictTree(source(bytes), 3);
    expect(index.paths).toHaveLength(180);
    for (let i = 0; i < index.paths.length; i++) {
      const b = readDictBranch(bytes.subarray(index.offsets[i]!), index, index.memoLengths[i]!);
      const got = [...b].map(([q, l]) => [q, l.get("no_answer"), l.get("with_answer")]);
      expect(got).toEqual(full.get(`${index.paths[i]![0]}\t${index.paths[i]![1]}`) ?? []);
    }
  });

  it("bytes that are not a branch: one InputError naming the stream offset", async () => {
    const bytes = pickled(shapes());
    const index = await indexDictTree(source(bytes), 3);
    const at = index.offsets[1]!;
    expect(() =>
      readDictBranch(bytes.subarray(at + 1), index, index.memoLengths[1]!, "t.pkl", at + 1),
    ).toThrow(new RegExp(`^t\\.pkl:byte ${at + 1}: expected a branch dict`));
    // Cut inside the branch.
    expect(() =>
      readDictBranch(bytes.subarray(at, at + 12), index, index.memoLengths[1]!, "t.pkl", at),
    ).toThrow(/t\.pkl:byte \d+: expected/);
  });

  it("a one-item dict above the leaves is refused by the index (the scanner's subset), not misread", async () => {
    const t: Tree = new Map([
      [
        "P1",
        new Map([
          [1, new Map([["Q1", new Map([["with_answer", 1]])]])],
          [2, new Map()],
        ]),
      ],
    ]);
    await expect(indexDictTree(source(pickled(t)), 3)).rejects.toThrow(/above the leaves|SETITEM/);
  });
});
