import { readFileSync } from "node:fs";
import { join } from "node:path";
import { collect, readRun } from "@convkit/formats";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { writeRun } from "./write-run.js";

describe("writeRun", () => {
  it("runs come out in trec_eval order (score desc, ties by docno desc) with renumbered ranks", async () => {
    const f = join(tempDir(), "r.run");
    await writeRun(f, [
      [
        { qid: "2", q0: "Q0", docno: "a", rank: 9, score: 1, tag: "t" },
        { qid: "1", q0: "Q0", docno: "b", rank: 9, score: 0.5, tag: "t" },
        { qid: "1", q0: "Q0", docno: "c", rank: 9, score: 0.5, tag: "t" },
        { qid: "1", q0: "Q0", docno: "a", rank: 9, score: 2.25, tag: "t" },
      ],
    ]);
    expect(readFileSync(f, "utf8")).toBe("2 Q0 a 1 1 t\n1 Q0 a 1 2.25 t\n1 Q0 c 2 0.5 t\n1 Q0 b 3 0.5 t\n");
    expect((await collect(readRun(f))).map((e) => e.docno)).toEqual(["a", "a", "c", "b"]);
  });
});
