// The README's "From Python" snippets run as they stand on a file pyarrow writes here (the lead points them at convkit's real outputs): each prints its row count, and a wrong count, a failing snippet or an unusable path fails the run.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { runReadmePythonSnippets } from "./python-snippets.js";
import { requires } from "./requires.js";
import { tempDir } from "./shared.js";

const ROWS = 1234;
const WRITE = `
import sys, pyarrow as pa, pyarrow.parquet as pq
n = int(sys.argv[2])
qa = pa.struct([("question", pa.string()), ("answer", pa.string())])
pq.write_table(pa.table({
    "record_id": pa.array(range(n), pa.int64()),
    "conversation_context": pa.array([[{"question": f"q{i}", "answer": "a"}] * (i % 3) for i in range(n)], pa.list_(qa)),
}), sys.argv[1], compression="zstd")
`;
const EXAMPLE = "out/train_synthetic.parquet";

requires("python-parquet").describe("the README's Python snippets", () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = tempDir("python-snippets-");
    file = join(dir, "train_synthetic.parquet");
    execFileSync("python3", ["-c", WRITE, file, String(ROWS)]);
  });

  it("each prints the row count of the file standing for out/train_synthetic.parquet", () => {
    const runs = runReadmePythonSnippets("From Python", { [EXAMPLE]: { path: file, rows: ROWS } });
    expect(runs).toHaveLength(4);
    for (const r of runs) expect(r.stdout.trim().split("\n").at(-1)).toBe(String(ROWS));
  });

  it("fails on a wrong count, a snippet that raises, a snippet naming no file, a quote in the path", () => {
    expect(() =>
      runReadmePythonSnippets("From Python", { [EXAMPLE]: { path: file, rows: ROWS + 1 } }),
    ).toThrow(`printed "${ROWS}", not ${ROWS + 1}`);
    const readme = join(dir, "README.md");
    writeFileSync(
      readme,
      `## From Python\n\n\`\`\`python\nimport pandas as pd\nprint(len(pd.read_parquet("${EXAMPLE}.gone")))\n\`\`\`\n`,
    );
    expect(() =>
      runReadmePythonSnippets("From Python", { [EXAMPLE]: { path: file, rows: ROWS } }, readme),
    ).toThrow(/exited 1: .*FileNotFoundError/);
    writeFileSync(readme, "## From Python\n\n```python\nprint(1234)\n```\n");
    expect(() =>
      runReadmePythonSnippets("From Python", { [EXAMPLE]: { path: file, rows: ROWS } }, readme),
    ).toThrow("names none of out/train_synthetic.parquet");
    expect(() =>
      runReadmePythonSnippets("From Python", { [EXAMPLE]: { path: `${dir}/it's.parquet`, rows: 1 } }),
    ).toThrow("quotes or backslashes");
  });
});
