// Parquet outputs of gen-synthetic, segment run and gen-eval beside the JSONL (or dict) of the same
// command, made by the built CLI, for the cross-check with Python's readers (pyarrow, pandas,
// polars, DuckDB, datasets). Cases that need the real data read $CONVKIT_SHARED (../shared).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  EVAL_ENTRY_SCHEMA,
  evalEntries,
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  PASSAGE_SCHEMA,
  QULAC_HIST_RECORD_SCHEMA,
  SYNTHETIC_RECORD_SCHEMA,
  toEvalDict,
} from "@convkit/formats";
import { readPickleFile } from "@convkit/pickle";
import { evalFixtureArgs, SHARED, writeEvalFixture } from "@convkit/test-helpers";
import { type ParquetCase, type Row, run } from "./check.js";

/** gen-synthetic on the real ClariQ files, one split: its own JSONL beside. */
function synthetic(split: string): ParquetCase {
  return {
    name: `gen-synthetic ${split} (real ClariQ)`,
    shared: true,
    schema: SYNTHETIC_RECORD_SCHEMA,
    async make(dir) {
      await run("gen-synthetic", [
        ...["--data", join(SHARED, "data", "clariq"), "--qulac", join(SHARED, "data", "qulac", "qulac.json")],
        ...["--splits", split, "--format", "jsonl,parquet", "--out", dir],
      ]);
      return {
        parquet: join(dir, `${split}_synthetic.parquet`),
        jsonl: join(dir, `${split}_synthetic.jsonl`),
      };
    },
  };
}

/** Documents with and without a url, non-ASCII text: passages whose url is null in some rows. */
export function documents(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    const text = Array.from(
      { length: 5 + ((i * 7) % 36) },
      (_, k) => `Sentence ${k} of doc ${i}, über the río.`,
    );
    s += `${JSON.stringify({ id: `doc${i}`, ...(i % 3 ? { url: `http://x.example/${i}` } : {}), text: text.join(" ") })}\n`;
  }
  return s;
}

/**
 * ClariQ's eval dict (gen-eval's pickle: its dicts keep their order, int context ids stay ints)
 * as the Parquet table's rows, ClariQ's MAX and MIN rows marked.
 */
export async function evalDictRows(pklTarGz: string): Promise<Row[]> {
  return Array.from(evalEntries(toEvalDict(pklTarGz, await readPickleFile(pklTarGz))), (e) => ({
    ...e,
    aggregate: e.question === "MAX" || e.question === "MIN",
  }));
}

function genEval(single: boolean): ParquetCase {
  return {
    name: `gen-eval${single ? " --single-turn" : ""} (generated fixture)`,
    shared: false,
    schema: single ? EVAL_ENTRY_SCHEMA : MULTI_TURN_EVAL_ENTRY_SCHEMA,
    async make(dir) {
      writeEvalFixture(dir);
      const prefix = join(dir, "eval");
      await run("gen-eval", [
        ...evalFixtureArgs(dir),
        ...(single ? ["--single-turn"] : []),
        ...["--format", "pickle,parquet", "-o", prefix],
      ]);
      const rows = await evalDictRows(`${prefix}.pkl.tar.gz`);
      writeFileSync(`${prefix}.jsonl`, rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
      return { parquet: `${prefix}.parquet`, jsonl: `${prefix}.jsonl` };
    },
  };
}

/**
 * qulac.json with its rows of the first `topics` topics only (all 198: 922,416 records out), as
 * pandas' `to_json` wrote it: each column a map from row index to value.
 */
export function qulacTopics(dir: string, topics: number): string {
  const full = JSON.parse(readFileSync(join(SHARED, "data", "qulac", "qulac.json"), "utf8")) as Record<
    string,
    Record<string, unknown>
  >;
  const ids = full.topic_id!;
  const keep = new Set([...new Set(Object.values(ids))].slice(0, topics));
  const rows = Object.keys(ids).filter((k) => keep.has(ids[k]));
  const out = join(dir, "qulac-part.json");
  writeFileSync(
    out,
    JSON.stringify(
      Object.fromEntries(
        Object.entries(full).map(([col, values]) => [
          col,
          Object.fromEntries(rows.map((k) => [k, values[k]])),
        ]),
      ),
    ),
  );
  return out;
}

/** gen-synthetic's Qulac flavour (qulac_hist012_dict): on the real qulac.json, or its first `topics` topics. */
export function qulacFlavour(topics?: number): ParquetCase {
  return {
    name: `gen-synthetic Qulac's flavour (real qulac.json${topics ? `, its first ${topics} topics` : ""})`,
    shared: true,
    schema: QULAC_HIST_RECORD_SCHEMA,
    async make(dir) {
      const qulac = topics ? qulacTopics(dir, topics) : join(SHARED, "data", "qulac", "qulac.json");
      await run("gen-synthetic", ["--qulac", qulac, "--format", "jsonl,parquet", "--out", join(dir, "out")]);
      return {
        parquet: join(dir, "out", "qulac_hist012_dict.parquet"),
        jsonl: join(dir, "out", "qulac_hist012_dict.jsonl"),
      };
    },
  };
}

export const cases: ParquetCase[] = [
  synthetic("dev"),
  synthetic("train"),
  qulacFlavour(),
  {
    name: "segment run, ikat preset, 2 threads (generated documents)",
    shared: false,
    schema: PASSAGE_SCHEMA,
    async make(dir) {
      const input = join(dir, "docs.jsonl");
      writeFileSync(input, documents(2500));
      await run("segment", [
        "run",
        input,
        "--format",
        "jsonl,parquet",
        "--threads",
        "2",
        "-o",
        join(dir, "out"),
      ]);
      return { parquet: join(dir, "out", "docs.parquet"), jsonl: join(dir, "out", "docs.jsonl") };
    },
  },
  {
    name: "segment run, msmarco preset with --url-title (generated documents)",
    shared: false,
    schema: PASSAGE_SCHEMA,
    async make(dir) {
      const input = join(dir, "docs.jsonl");
      writeFileSync(input, documents(500));
      await run("segment", [
        "run",
        input,
        "--preset",
        "msmarco",
        "--url-title",
        "--format",
        "jsonl,parquet",
        "-o",
        join(dir, "out"),
      ]);
      return { parquet: join(dir, "out", "docs.parquet"), jsonl: join(dir, "out", "docs.jsonl") };
    },
  },
  genEval(false),
  genEval(true),
];
