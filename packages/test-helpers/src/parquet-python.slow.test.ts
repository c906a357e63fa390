// The Python-side check of Parquet outputs, on a file pyarrow writes here: every reader sees its rows and types exactly, and a JSONL that differs in one value, one record or one type fails it.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import {
  expectParquetEqualsJsonl,
  PYTHON_PARQUET_READERS,
  parseJsonExact,
  readParquetInPython,
  streamParquetInPython,
} from "./parquet-python.js";
import { requires } from "./requires.js";
import { tempDir } from "./shared.js";

// Edges on purpose: an int past 2^53, an integral double past it (Python prints 1e+16, JavaScript
// 10000000000000000), a string with digits, quotes, a newline and non-ASCII, a null in each type,
// an empty history first (polars' read_ndjson fails on exactly that), an answer that looks like a date.
const WRITE = `
import sys, pyarrow as pa, pyarrow.parquet as pq
qa = pa.struct([("question", pa.string()), ("answer", pa.string())])
pq.write_table(pa.table({
    "record_id": pa.array([1, 2, 9007199254740993], pa.int64()),
    "initial_request": pa.array(["Tell me about Obama's family.", None, 'é "q" \\n 12345678901234567'], pa.string()),
    "score": pa.array([0.1, None, 1e16], pa.float64()),
    "answered": pa.array([True, False, None]),
    "conversation_context": pa.array([[], [{"question": "when?", "answer": "2019-01-02"}], None], pa.list_(qa)),
    "context_id": pa.array([None, 7, 8], pa.int64()),
}), sys.argv[1], compression="zstd")
`;
const JSONL = [
  `{"record_id":1,"initial_request":"Tell me about Obama's family.","score":0.1,"answered":true,"conversation_context":[],"context_id":null}`,
  `{"record_id":2,"initial_request":null,"score":null,"answered":false,"conversation_context":[{"question":"when?","answer":"2019-01-02"}],"context_id":7}`,
  `{"record_id":9007199254740993,"initial_request":"é \\"q\\" \\n 12345678901234567","score":10000000000000000,"answered":null,"conversation_context":null,"context_id":8}`,
];
const TYPES = {
  record_id: "int64",
  initial_request: "string",
  score: "double",
  answered: "boolean",
  conversation_context: "list<struct<question: string, answer: string>>",
  context_id: "int64",
};
// pandas (numpy dtypes) turns an int64 column with a null into float64: said, not hidden.
const PANDAS = { context_id: "double" };

requires("python-parquet").describe("Parquet read back in Python (read_parquet.py)", () => {
  let dir: string;
  let parquet: string;
  const jsonl = (name: string, lines: string[]): string => {
    const p = join(dir, name);
    writeFileSync(p, `${lines.join("\n")}\n`);
    return p;
  };
  beforeAll(() => {
    dir = tempDir("parquet-python-");
    parquet = join(dir, "t.parquet");
    execFileSync("python3", ["-c", WRITE, parquet]);
  });

  it("gives every reader's columns, types and rows, values exact", async () => {
    const tables = await readParquetInPython(parquet);
    expect(tables.map((t) => t.reader)).toEqual([...PYTHON_PARQUET_READERS]);
    const expected = JSONL.map((l) => parseJsonExact(l));
    for (const t of tables) {
      const types = t.reader === "pandas" ? { ...TYPES, ...PANDAS } : TYPES;
      expect(
        t.columns.map((c) => [c.name, c.normalized]),
        t.reader,
      ).toEqual(Object.entries(types));
      expect(t.rows, t.reader).toEqual(expected);
    }
    // The library's own names are kept beside the normalized ones.
    const ctx = (r: string) => tables.find((t) => t.reader === r)!.columns[4]!.type;
    expect(ctx("pyarrow")).toBe("list<element: struct<question: string, answer: string>>");
    expect(ctx("pandas")).toBe("object");
    expect(ctx("polars")).toBe("List(Struct({'question': String, 'answer': String}))");
    expect(ctx("duckdb")).toBe("STRUCT(question VARCHAR, answer VARCHAR)[]");
  });

  it("passes a JSONL of the same records, answering each reader's row count", async () => {
    const same = jsonl("same.jsonl", JSONL);
    const checks = await expectParquetEqualsJsonl(parquet, same, TYPES, { typesIn: { pandas: PANDAS } });
    expect(checks.map((c) => [c.reader, c.rows])).toEqual(PYTHON_PARQUET_READERS.map((r) => [r, 3]));
    // pandas' float64 for an int64 column is its own limit (numpy ints hold no null): passed
    // without a declaration too; a reader that reads the file's type must see int64.
    expect((await expectParquetEqualsJsonl(parquet, same, TYPES, { readers: ["pandas"] }))[0]?.rows).toBe(3);
    await expect(
      expectParquetEqualsJsonl(parquet, same, { ...TYPES, score: "int64" }, { readers: ["pyarrow"] }),
    ).rejects.toThrow(/pyarrow: columns \{.*score: double.*\}.*expected \{.*score: int64/);
  });

  it("fails on an int one off past 2^53, naming every reader, the row and the field", async () => {
    const off = [JSONL[0]!, JSONL[1]!, JSONL[2]!.replace("9007199254740993", "9007199254740992")];
    const err = await expectParquetEqualsJsonl(parquet, jsonl("off.jsonl", off), TYPES, {
      typesIn: { pandas: PANDAS },
    }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    for (const r of PYTHON_PARQUET_READERS)
      expect((err as Error).message).toContain(
        `${r}: row 3, record_id: {"$int":"9007199254740993"} in Parquet`,
      );
  });

  it("fails on a nested value, a record less, a record more, a field more, a type", async () => {
    const cases: [string, string[], Record<string, string>, string][] = [
      [
        "nested",
        [JSONL[0]!, JSONL[1]!.replace("2019-01-02", "2019-01-03"), JSONL[2]!],
        TYPES,
        "row 2, conversation_context",
      ],
      ["less", JSONL.slice(0, 2), TYPES, "has only 2 records"],
      ["more", [...JSONL, JSONL[0]!], TYPES, "3 rows, but"],
      ["field", [JSONL[0]!.replace("{", '{"extra":1,'), ...JSONL.slice(1)], TYPES, "has fields extra"],
      ["type", JSONL, { ...TYPES, record_id: "string" }, "expected {record_id: string"],
    ];
    for (const [name, lines, types, says] of cases) {
      // One cheap reader each (the five were checked above): the comparison is the same code.
      const p = jsonl(`${name}.jsonl`, lines);
      await expect(
        expectParquetEqualsJsonl(parquet, p, types, { readers: ["polars"] }),
        name,
      ).rejects.toThrow(says);
    }
  });

  it("fails, naming each reader, on a file that is not Parquet", async () => {
    const bad = join(dir, "bad.parquet");
    writeFileSync(bad, "PAR1 not really");
    const err = await expectParquetEqualsJsonl(bad, jsonl("any.jsonl", JSONL), TYPES, {
      readers: ["pyarrow", "duckdb"],
    }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/pyarrow: does not open .*\nduckdb: does not open /);
  });

  it("answers the next file after a caller that left mid-answer (the script is started again)", async () => {
    for await (const ev of streamParquetInPython(parquet, ["pyarrow", "polars"]))
      if (ev.kind === "row") break;
    const tables = await readParquetInPython(parquet, ["polars"]);
    expect(tables.map((t) => [t.reader, t.rows.length])).toEqual([["polars", 3]]);
  });
});
