import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { strcmpOrder, trecOrder } from "./order.js";

// Docnos where UTF-16 order and byte order part: astral characters (surrogates, 0xD800…) against
// characters in U+E000–U+FFFF, accents, ASCII case and prefixes.
const DOCNOS = [
  "doc-a",
  "doc-B",
  "doc-é",
  "doc-e\u0301",
  "doc-\u{1F600}",
  "doc-\uFF21",
  "doc-\uE000",
  "doc-\u{10000}",
  "doc-",
  "doc-aa",
  "clueweb22-en0000-00-00000:1",
  "clueweb22-en0000-00-00000:10",
  "clueweb22-en0000-00-00000:2",
];

describe("trec_eval's order", () => {
  it("ties go by docno descending in C's byte order (LC_ALL=C sort -r), not JavaScript's", () => {
    const sorted = spawnSync("sort", ["-r"], {
      input: `${DOCNOS.join("\n")}\n`,
      env: { ...process.env, LC_ALL: "C" },
    });
    const expected = sorted.stdout.toString("utf8").trimEnd().split("\n");
    const got = DOCNOS.map((docno) => ({ docno, score: 1 }))
      .sort(trecOrder)
      .map((d) => d.docno);
    expect(got).toEqual(expected);
    // JavaScript's own order would differ here: the case above tests something.
    expect([...DOCNOS].sort().reverse()).not.toEqual(expected);
  });

  it("scores first, descending; equal strings compare equal", () => {
    const a = { docno: "a", score: 2 };
    const b = { docno: "z", score: 1 };
    expect(trecOrder(a, b)).toBeLessThan(0);
    expect(trecOrder(b, a)).toBeGreaterThan(0);
    expect(strcmpOrder("x\u{1F600}", "x\u{1F600}")).toBe(0);
    expect(Math.sign(strcmpOrder("\u{1F600}", "\uFF21"))).toBe(1);
  });
});
