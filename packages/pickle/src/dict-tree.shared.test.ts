import { openPayload } from "@convkit/io";
import { requires, shared } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { scanDictTree } from "./dict-tree.js";
import { loadPickle } from "./unpickle.js";
import type { PyValue } from "./values.js";

type Tree = Map<PyValue, Map<PyValue, Map<PyValue, Map<PyValue, PyValue>>>>;

function chunked(bytes: Buffer, size: number) {
  return {
    name: "multi_turn_dev_eval.pkl",
    chunks: (async function* () {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    })(),
  };
}

// The scanner's fast paths (the WebAssembly item kernel, whole branches at once) are checked
// against the general unpickler on ClariQ's real dict, with its bytes cut at odd places so that
// items and branches straddle chunk boundaries.
requires("shared").describe("scanDictTree on ClariQ's multi-turn eval dict (../shared)", () => {
  it("reports every leaf the general unpickler builds, whole or cut in odd chunks, all or a few per context", async () => {
    const path = shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz");
    const parts: Uint8Array[] = [];
    for await (const c of (await openPayload(path)).chunks) parts.push(c);
    const bytes = Buffer.concat(parts);
    const tree = loadPickle(bytes) as Tree;
    let all = 0;
    for (const contexts of tree.values()) for (const qs of contexts.values()) all += qs.size;
    // A few per context: its first and last question, and one no context has.
    const few = (branch: readonly PyValue[]) => {
      const qs = [...tree.get(branch[0]!)!.get(branch[1]!)!.keys()];
      return [qs[0]!, "Q00000", qs.at(-1)!];
    };
    let fewCount = 0;
    for (const contexts of tree.values()) for (const qs of contexts.values()) fewCount += qs.size > 1 ? 2 : 1;

    for (const [size, wanted] of [
      [bytes.length, undefined],
      [4093, undefined],
      [65_537, few],
      [1021, few],
    ] as const) {
      let seen = 0;
      let wrong = "";
      await scanDictTree(
        chunked(bytes, size),
        3,
        (p, names, values, n) => {
          seen++;
          const leaf = tree.get(p[0]!)?.get(p[1]!)?.get(p[2]!);
          for (let i = 0; i < n; i++)
            if (wrong === "" && leaf?.get(names[i]!) !== values[i])
              wrong = `${p.join("/")} ${names[i]}=${values[i]}`;
          if (wrong === "" && leaf?.size !== n) wrong = `${p.join("/")} has ${n} names`;
        },
        wanted,
      );
      expect(wrong, `chunks of ${size}`).toBe("");
      expect(seen, `chunks of ${size}`).toBe(wanted ? fewCount : all);
    }
    expect(all).toBeGreaterThan(1_000_000);
  }, 120_000);
});
