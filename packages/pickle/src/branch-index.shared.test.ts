// indexDictTree + readDictBranch on ClariQ's real multi-turn eval dict (../shared): branches read alone equal the full scan.
import { openPayload } from "@convkit/io";
import { requires, rng, shared } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { indexDictTree, readDictBranch } from "./branch-index.js";
import { scanDictTree } from "./dict-tree.js";
import type { PyValue } from "./values.js";

const source = (bytes: Uint8Array) => ({
  name: "t.pkl",
  chunks: (async function* () {
    // Small chunks: offsets must be stream offsets, not chunk offsets.
    for (let i = 0; i < bytes.length; i += 97) yield bytes.subarray(i, i + 97);
  })(),
});

requires("shared").describe("indexDictTree + readDictBranch on ../shared", () => {
  it("ClariQ's 40 MB multi-turn eval dict: 300 random contexts read alone equal the full scan (../shared)", async () => {
    const path = shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz");
    const chunks: Uint8Array[] = [];
    for await (const c of (await openPayload(path)).chunks) chunks.push(c);
    const bytes = Buffer.concat(chunks);
    const index = await indexDictTree(source(bytes), 3);
    expect(index.paths.length).toBe(163_537);
    const r = rng(3);
    const picked = new Set(Array.from({ length: 300 }, () => Math.floor(r() * index.paths.length)));
    const want = new Map<string, [PyValue, number][]>();
    const keys = new Set([...picked].map((i) => `${index.paths[i]![0]}\t${index.paths[i]![1]}`));
    await scanDictTree(source(bytes), 3, (path, names, values, n) => {
      const k = `${path[0]}\t${path[1]}`;
      if (!keys.has(k)) return;
      const l = want.get(k) ?? [];
      l.push([path[2]!, values[names.slice(0, n).indexOf("with_answer")]!]);
      want.set(k, l);
    });
    for (const i of picked) {
      const end = i + 1 < index.paths.length ? index.offsets[i + 1]! : bytes.length;
      const b = readDictBranch(bytes.subarray(index.offsets[i]!, end), index, index.memoLengths[i]!);
      expect([...b].map(([q, l]) => [q, l.get("with_answer")])).toEqual(
        want.get(`${index.paths[i]![0]}\t${index.paths[i]![1]}`),
      );
    }
  }, 60_000);
});
