// Runs and qrels as Parquet tables: told from text by content (a file, bytes already read), their
// kind from their columns, a ranx run's tag from its file name.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeParquet } from "@convkit/parquet";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { detectFormat } from "./detect.js";
import {
  QRELS_ENTRY_SCHEMA,
  RANX_QRELS_SCHEMA,
  RANX_RUN_SCHEMA,
  RUN_ENTRY_SCHEMA,
} from "./parquet-schemas.js";
import { collect } from "./table.js";
import { readQrels, readRun } from "./trec.js";
import { ranxRunTag } from "./trec-parquet.js";

const RANX = [
  { q_id: "q1", doc_id: "b", score: 2 },
  { q_id: "q1", doc_id: "a", score: 1.5 },
  { q_id: "q2", doc_id: "c", score: 3 },
  { q_id: "q1", doc_id: "d", score: 1 },
];

describe("Parquet runs and qrels", () => {
  it("a ranx run: Q0, ranks by place within its topic, the tag its file's stem", async () => {
    const dir = tempDir("trec-parquet-");
    const path = join(dir, "bm25 k1.parquet");
    await writeParquet(path, RANX_RUN_SCHEMA, [RANX]);
    expect(await detectFormat(path)).toBe("run");
    const t = "bm25_k1";
    expect(await collect(readRun(path))).toEqual([
      { qid: "q1", q0: "Q0", docno: "b", rank: 1, score: 2, tag: t },
      { qid: "q1", q0: "Q0", docno: "a", rank: 2, score: 1.5, tag: t },
      { qid: "q2", q0: "Q0", docno: "c", rank: 1, score: 3, tag: t },
      { qid: "q1", q0: "Q0", docno: "d", rank: 3, score: 1, tag: t },
    ]);
    // Bytes already read (stdin): the same rows, tagged "ranx".
    const source = {
      name: "<stdin>",
      chunks: (async function* () {
        yield readFileSync(path);
      })(),
    };
    expect((await collect(readRun("-", { source }))).map((e) => e.tag)).toEqual([
      "ranx",
      "ranx",
      "ranx",
      "ranx",
    ]);
  });

  it("ranx qrels (an int64 score) given as the run: one line, not a run scored silently", async () => {
    const path = join(tempDir("trec-parquet-"), "qrels.parquet");
    await writeParquet(path, RANX_QRELS_SCHEMA, [[{ q_id: "q1", doc_id: "a", score: 1 }]]);
    await expect(collect(readRun(path))).rejects.toThrow(
      `${path}: expected a run as a table: a ranx run's score is a double (ranx's Run.from_df asserts float64), found an int64 score, ranx's qrels layout`,
    );
  });

  it("tags: extensions dropped, whitespace as _, stdin ranx", () => {
    expect(ranxRunTag("/x/run.parquet")).toBe("run");
    expect(ranxRunTag("/x/my run.PARQ")).toBe("my_run");
    expect(ranxRunTag("/x/a.b.pq")).toBe("a.b");
    expect(ranxRunTag("/x/.parquet")).toBe("ranx");
    expect(ranxRunTag("-")).toBe("ranx");
  });

  it("qrels in both layouts, and a text file still read as text", async () => {
    const dir = tempDir("trec-parquet-");
    await writeParquet(join(dir, "ranx.parquet"), RANX_QRELS_SCHEMA, [
      [{ q_id: "q1", doc_id: "a", score: 2 }],
    ]);
    await writeParquet(join(dir, "own.parquet"), QRELS_ENTRY_SCHEMA, [
      [{ qid: "q1", iter: "0", docno: "a", rel: 2 }],
    ]);
    writeFileSync(join(dir, "text"), "q1 0 a 2\n");
    for (const f of ["ranx.parquet", "own.parquet", "text"]) {
      expect(await detectFormat(join(dir, f)), f).toBe("qrels");
      expect(await collect(readQrels(join(dir, f))), f).toEqual([
        { qid: "q1", iter: "0", docno: "a", rel: 2 },
      ]);
    }
    await writeParquet(join(dir, "run.parquet"), RUN_ENTRY_SCHEMA, []);
    expect(await detectFormat(join(dir, "run.parquet"))).toBe("run");
    expect(await collect(readRun(join(dir, "run.parquet")))).toEqual([]);
  });
});
