// Parquet outputs of convert, ikat flatten, trec-eval and compare beside the JSONL rows they must
// equal: each case runs the built CLI on real data (../shared) or the repo's fixtures and writes
// both files into `dir`. Where the command's JSONL is not one row a record (iKAT topics and runs,
// flattened as the README documents), or there is none (trec-eval, compare), the JSONL is made
// here from the command's own JSONL/text/JSON output, by the layout's documented rules. The apps'
// tests and the lead's Python readers (pyarrow, pandas, polars, DuckDB, datasets) check them.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ARGS_ME_SCHEMA,
  CLARIFICATION_NEED_SCHEMA,
  CLARIQ_ROW_SCHEMA,
  CLARIQ_TEST_TOPIC_SCHEMA,
  CLUEWEB22_SCHEMA,
  COMPARE_PAIR_SCHEMA,
  COMPARE_VALUE_SCHEMA,
  EVAL_ENTRY_SCHEMA,
  HUMAN_MULTI_TURN_SCHEMA,
  IKAT_RESPONSE_SCHEMA,
  IKAT_TURN_SCHEMA,
  IKAT25_RESPONSE_SCHEMA,
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  MULTI_TURN_RUN_SCHEMA,
  PASSAGE_HASH_SCHEMA,
  PASSAGE_SCHEMA,
  QRELS_ENTRY_SCHEMA,
  QUESTION_BANK_SCHEMA,
  QULAC_ROW_SCHEMA,
  RUN_ENTRY_SCHEMA,
  SYNTHETIC_RECORD_SCHEMA,
  TOUCHE_TOPIC_SCHEMA,
  TREC_EVAL_VALUE_SCHEMA,
  TRECWEB_DOC_SCHEMA,
} from "@convkit/formats";
import type { TableSchema } from "@convkit/parquet";
import { REPO, SHARED } from "@convkit/test-helpers";
import { jsonlRows, type ParquetCase, type Row, run } from "./check.js";
import {
  argsMeLayout,
  multiTurnEvalPickle,
  response25Layout,
  responseLayout,
  syntheticPickle,
  trecWebLayout,
  turnLayout,
} from "./out-b-layouts.js";

function writeRows(path: string, rows: readonly Row[]): void {
  writeFileSync(path, rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
}

/** Every column of the schema in each row, in the schema's order; an absent field is null. */
function complete(schema: TableSchema, rows: readonly Row[]): Row[] {
  return rows.map((r) => Object.fromEntries(schema.columns.map((c) => [c.name, r[c.name] ?? null])));
}

const data = (...p: string[]) => join(SHARED, "data", ...p);

/** The eval table's rows: the entries, with ClariQ's MAX and MIN rows marked. */
function aggregateMarked(records: Row[]): Row[] {
  return records.map((r) => ({ ...r, aggregate: r.question === "MAX" || r.question === "MIN" }));
}

/** `convert --to parquet INPUT` beside `convert INPUT` (the JSONL), rows mapped by `layout`. */
function convertCase(
  name: string,
  input: string,
  schema: TableSchema,
  layout: (records: Row[]) => Row[] = (r) => r,
  shared = true,
): ParquetCase {
  return {
    name: `convert ${name}`,
    shared,
    schema,
    async make(dir) {
      const parquet = join(dir, `${name}.parquet`);
      const raw = join(dir, `${name}.records.jsonl`);
      const jsonl = join(dir, `${name}.jsonl`);
      await run("convert", ["--to", "parquet", input, "-o", parquet]);
      await run("convert", [input, "-o", raw]);
      writeRows(jsonl, complete(schema, layout(jsonlRows(raw))));
      return { parquet, jsonl };
    },
  };
}

/** A case whose input the case writes into `dir` first (inputs made in the test, not committed). */
function madeInputCase(
  name: string,
  file: string,
  text: string | Buffer,
  schema: TableSchema,
  layout?: (records: Row[]) => Row[],
): ParquetCase {
  return {
    ...convertCase(name, "", schema),
    shared: false,
    async make(dir) {
      writeFileSync(join(dir, file), text);
      return convertCase(name, join(dir, file), schema, layout, false).make(dir);
    },
  };
}

const TREC_FIXTURES = join(REPO, "test", "fixtures", "trec_eval");

/**
 * `trec-eval --format parquet` beside its text, parsed: measure, topic, value (runid, relstring
 * left out); the text is upstream trec_eval's own output where its test suite has it (`golden`).
 */
function trecEvalCase(name: string, flags: string[], golden?: string): ParquetCase {
  return {
    name: `trec-eval ${name}`,
    shared: false,
    schema: TREC_EVAL_VALUE_SCHEMA,
    async make(dir) {
      const files = [join(TREC_FIXTURES, "qrels.test"), join(TREC_FIXTURES, "results.test")];
      const parquet = join(dir, `trec-eval-${name}.parquet`);
      const jsonl = join(dir, `trec-eval-${name}.jsonl`);
      await run("trec-eval", [...flags, "--format", "parquet", "-o", parquet, ...files]);
      const text =
        golden === undefined
          ? await run("trec-eval", [...flags, ...files])
          : readFileSync(join(TREC_FIXTURES, golden), "utf8");
      const rows: Row[] = [];
      for (const line of text.split("\n")) {
        const [m, topic, v] = line.split("\t");
        if (m === undefined || topic === undefined || v === undefined) continue;
        if (m.trim() === "runid" || v.startsWith("'")) continue;
        rows.push({ measure: m.trim(), topic, value: Number(v) });
      }
      writeRows(jsonl, rows);
      return { parquet, jsonl };
    },
  };
}

/** `compare --format parquet` beside `--format json`'s pairs (ci95 as ci95_low, ci95_high). */
const compareCase: ParquetCase = {
  name: "compare pairs",
  shared: false,
  schema: COMPARE_PAIR_SCHEMA,
  async make(dir) {
    const args = [
      "--qrels",
      join(TREC_FIXTURES, "qrels.test"),
      "-m",
      "map",
      "-m",
      "P.5,10",
      "-m",
      "ndcg",
      join(TREC_FIXTURES, "results.test"),
      join(TREC_FIXTURES, "results.trunc"),
    ];
    const parquet = join(dir, "compare.parquet");
    const jsonl = join(dir, "compare.jsonl");
    await run("compare", [...args, "--format", "parquet", "-o", parquet]);
    const json = JSON.parse(await run("compare", [...args, "--format", "json"])) as { pairs: Row[] };
    const rows = json.pairs.map((p) => {
      const [ci95_low, ci95_high] = p.ci95 as [number, number];
      return { ...p, ci95_low, ci95_high };
    });
    writeRows(jsonl, complete(COMPARE_PAIR_SCHEMA, rows));
    return { parquet, jsonl };
  },
};

/**
 * `compare --per-topic --values-out` on two trec_eval -q outputs beside the values those files
 * hold: per measure (in -m order), per run, the first run's topics every run has, in its order.
 */
const compareValuesCase: ParquetCase = {
  name: "compare values",
  shared: false,
  schema: COMPARE_VALUE_SCHEMA,
  async make(dir) {
    const measures = ["map", "P_10", "num_rel_ret"];
    const texts: string[] = [];
    const files: string[] = [];
    for (const name of ["results.test", "results.trunc"]) {
      const text = await run("trec-eval", [
        "-q",
        join(TREC_FIXTURES, "qrels.test"),
        join(TREC_FIXTURES, name),
      ]);
      files.push(join(dir, `${name}.q`));
      writeFileSync(files.at(-1)!, text);
      texts.push(text);
    }
    const parquet = join(dir, "compare-values.parquet");
    const jsonl = join(dir, "compare-values.jsonl");
    const m = measures.flatMap((x) => ["-m", x]);
    await run("compare", [
      "--per-topic",
      ...m,
      "--values-out",
      parquet,
      "-o",
      join(dir, "pairs.txt"),
      ...files,
    ]);
    const values = texts.map((text) => {
      const v = new Map<string, Map<string, number>>();
      for (const line of text.split("\n")) {
        const [name, topic, value] = line.split("\t");
        if (name === undefined || topic === undefined || value === undefined || topic === "all") continue;
        if (!v.has(name.trim())) v.set(name.trim(), new Map());
        v.get(name.trim())!.set(topic, Number(value));
      }
      return v;
    });
    const rows: Row[] = [];
    for (const measure of measures) {
      const topics = [...values[0]!.get(measure)!.keys()].filter((t) =>
        values.every((v) => v.get(measure)!.has(t)),
      );
      values.forEach((v, i) => {
        for (const topic of topics)
          rows.push({
            run: `${["results.test", "results.trunc"][i]}.q`,
            measure,
            topic,
            value: v.get(measure)!.get(topic),
          });
      });
    }
    writeRows(jsonl, rows);
    return { parquet, jsonl };
  },
};

/** `ikat flatten --format parquet` beside `ikat flatten`. */
function flattenCase(year: string): ParquetCase {
  return {
    name: `ikat flatten ${year}`,
    shared: true,
    schema: IKAT_TURN_SCHEMA,
    async make(dir) {
      const topics = data("ikat", `${year}_topics.json`);
      const parquet = join(dir, `flatten-${year}.parquet`);
      const raw = join(dir, `flatten-${year}.records.jsonl`);
      const jsonl = join(dir, `flatten-${year}.jsonl`);
      await run("ikat", ["flatten", "--format", "parquet", topics, "-o", parquet]);
      await run("ikat", ["flatten", topics, "-o", raw]);
      writeRows(jsonl, complete(IKAT_TURN_SCHEMA, turnLayout(jsonlRows(raw))));
      return { parquet, jsonl };
    },
  };
}

/** `convert --to parquet` of iKAT topics: the rows of `ikat flatten` (convert's own JSONL is one record a topic). */
function topicsCase(year: string): ParquetCase {
  return {
    name: `convert ikat topics ${year}`,
    shared: true,
    schema: IKAT_TURN_SCHEMA,
    async make(dir) {
      const topics = data("ikat", `${year}_topics.json`);
      const parquet = join(dir, `topics-${year}.parquet`);
      const raw = join(dir, `topics-${year}.records.jsonl`);
      const jsonl = join(dir, `topics-${year}.jsonl`);
      await run("convert", ["--to", "parquet", topics, "-o", parquet]);
      await run("ikat", ["flatten", topics, "-o", raw]);
      writeRows(jsonl, complete(IKAT_TURN_SCHEMA, turnLayout(jsonlRows(raw))));
      return { parquet, jsonl };
    },
  };
}

const clariq = (f: string) => data("clariq", f);
const runs = (f: string) => data("ikat", "run_validation", f);

export const cases: ParquetCase[] = [
  convertCase("clariq-dev", clariq("dev.tsv"), CLARIQ_ROW_SCHEMA),
  convertCase("clariq-test", clariq("test.tsv"), CLARIQ_TEST_TOPIC_SCHEMA),
  convertCase("question-bank", clariq("question_bank.tsv"), QUESTION_BANK_SCHEMA),
  convertCase("human-multi-turn", clariq("multi_turn_human_generated_data.tsv"), HUMAN_MULTI_TURN_SCHEMA),
  convertCase("qrels", clariq("dev.qrel"), QRELS_ENTRY_SCHEMA),
  convertCase("run", clariq("sample_runs/dev_bm25"), RUN_ENTRY_SCHEMA),
  convertCase("multi-turn-run", clariq("sample_runs/dev_bm25_multi_turn"), MULTI_TURN_RUN_SCHEMA),
  convertCase(
    "clarification-need-run",
    join(REPO, "data", "clariq", "runs", "clarification_need.run"),
    CLARIFICATION_NEED_SCHEMA,
    undefined,
    false,
  ),
  convertCase("qulac", data("qulac", "qulac.json"), QULAC_ROW_SCHEMA),
  convertCase("passage-hashes", runs("sample_hashes.tsv"), PASSAGE_HASH_SCHEMA),
  convertCase(
    "single-turn-eval-dict",
    join(SHARED, "golden", "clariq-eval", "eval_dicts", "single_turn_train_eval.pkl"),
    EVAL_ENTRY_SCHEMA,
    aggregateMarked,
  ),
  madeInputCase("synthetic-dict", "synthetic.pkl", syntheticPickle(), SYNTHETIC_RECORD_SCHEMA),
  // int context ids: the context column is int64 (ClariQ's multi_turn_*_eval.pkl)
  madeInputCase(
    "multi-turn-eval-dict",
    "multi_turn_eval.pkl",
    multiTurnEvalPickle([3, 10, 11]),
    MULTI_TURN_EVAL_ENTRY_SCHEMA,
    aggregateMarked,
  ),
  convertCase(
    "touche-topics",
    join(REPO, "data", "touche", "topics.sample.xml"),
    TOUCHE_TOPIC_SCHEMA,
    undefined,
    false,
  ),
  convertCase(
    "args-me",
    join(REPO, "data", "touche", "debateorg.sample.json"),
    ARGS_ME_SCHEMA,
    argsMeLayout,
    false,
  ),
  // iKAT collection lines, one without a url (a nullable column)
  madeInputCase(
    "passages",
    "passages.jsonl",
    '{"id": "clueweb22-en0000-00-00000:0", "contents": "caf\\u00e9 \\"x\\"", "url": "https://a.example"}\n' +
      '{"id": "clueweb22-en0000-00-00000:1", "contents": "second"}\n',
    PASSAGE_SCHEMA,
  ),
  madeInputCase(
    "trecweb",
    "docs.trecweb",
    "<DOC>\n<DOCNO>d1</DOCNO>\n<DOCHDR>\nhttp://a\n</DOCHDR>\n<TITLE>T</TITLE>\n<URL>http://a</URL>\n" +
      "<PASSAGE id=0>\nfirst\n</PASSAGE>\n<PASSAGE id=1>\nsecond \u00e9\n</PASSAGE>\n</DOC>\n" +
      "<DOC>\n<DOCNO>d2</DOCNO>\nplain body\n</DOC>\n",
    TRECWEB_DOC_SCHEMA,
    trecWebLayout,
  ),
  madeInputCase(
    "clueweb22",
    "clueweb22.json",
    `${JSON.stringify({ "ClueWeb22-ID": "clueweb22-en0000-00-00001", URL: "https://e.org/1\n", "URL-hash": "ABC", Language: "en", "Clean-Text": "Title\nBody \u{1F600}" })}\n`,
    CLUEWEB22_SCHEMA,
  ),
  topicsCase("2023_train"),
  topicsCase("2024_test"),
  topicsCase("2025_test"),
  flattenCase("2023_test"),
  flattenCase("2025_test"),
  convertCase("ikat-run-2023", runs("2023_sample_run.json"), IKAT_RESPONSE_SCHEMA, responseLayout),
  convertCase("ikat-run-2024", runs("2024_sample_run.json"), IKAT_RESPONSE_SCHEMA, responseLayout),
  convertCase(
    "ikat-run-2023-no-ptkb",
    runs("2023_sample_run_no_ptkb.json"),
    IKAT_RESPONSE_SCHEMA,
    responseLayout,
  ),
  convertCase(
    "ikat25-run",
    join(SHARED, "golden", "ikat25", "000", "run.jsonl.gz"),
    IKAT25_RESPONSE_SCHEMA,
    response25Layout,
  ),
  convertCase(
    "ikat25-run-no-responses",
    join(SHARED, "golden", "ikat25", "002", "run.jsonl.gz"),
    IKAT25_RESPONSE_SCHEMA,
    response25Layout,
  ),
  trecEvalCase("q", ["-q"]),
  trecEvalCase("q-all-trec", ["-m", "all_trec", "-q"], "out.test.aq"),
  compareCase,
  compareValuesCase,
];
