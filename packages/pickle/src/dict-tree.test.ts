import { describe, expect, it } from "vitest";
import { scanDictTree } from "./dict-tree.js";
import { PyFloat, type PyValue } from "./values.js";
import { dumpPickle } from "./writer.js";

/** An eval-dict-shaped tree: metric → context → question → {no_answer, with_answer}. */
function tree(): PyValue {
  const t = new Map<PyValue, PyValue>();
  for (const metric of ["NDCG1", "P1"]) {
    const ctxs = new Map<PyValue, PyValue>();
    for (let ctx = 1; ctx <= 5; ctx++) {
      const qs = new Map<PyValue, PyValue>();
      for (const q of ["Q1", "Q2", "Q3", "MAX", "MIN"])
        qs.set(q, { no_answer: new PyFloat(ctx / 10), with_answer: new PyFloat(ctx / 10 + q.length) });
      ctxs.set(ctx, qs);
    }
    t.set(metric, ctxs);
  }
  return t;
}

async function leaves(
  want?: (branch: readonly PyValue[]) => ReadonlySet<PyValue> | readonly PyValue[] | undefined,
): Promise<string[]> {
  const bytes = dumpPickle(tree());
  const out: string[] = [];
  await scanDictTree(
    {
      name: "t.pkl",
      chunks: (async function* () {
        yield bytes;
      })(),
    },
    3,
    (path, names, values, n) => {
      out.push(`${path.join("/")} ${names.slice(0, n).join(",")} ${[...values.subarray(0, n)].join(",")}`);
    },
    want,
  );
  return out;
}

describe("scanDictTree's wanted leaves", () => {
  it("a set or a list per branch reports exactly the leaves the full scan has under those keys", async () => {
    const all = await leaves();
    expect(all).toHaveLength(2 * 5 * 5);
    const pick = (ctx: PyValue) => ["MIN", `Q${(Number(ctx) % 3) + 1}`];
    const expected = all.filter((l) => {
      const [, ctx, q] = l.split(" ")[0]!.split("/");
      return pick(Number(ctx)).includes(q!);
    });
    expect(expected).toHaveLength(2 * 5 * 2);
    expect(await leaves((b) => new Set(pick(b[1]!)))).toEqual(expected);
    expect(await leaves((b) => pick(b[1]!))).toEqual(expected);
    // The same list object for every branch, and none at all.
    const onlyMin = ["MIN"];
    expect(await leaves(() => onlyMin)).toEqual(all.filter((l) => l.split(" ")[0]!.endsWith("/MIN")));
    expect(await leaves(() => [])).toEqual([]);
    // Keys the tree lacks (a string, a number) match nothing, before and after the real ones appear.
    expect(await leaves(() => ["Q9", 7, "MIN"])).toEqual(
      all.filter((l) => l.split(" ")[0]!.endsWith("/MIN")),
    );
  });
});
