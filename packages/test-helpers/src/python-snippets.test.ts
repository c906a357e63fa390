// pythonSnippets: the README's "From Python" blocks found as the snippet test runs them (running them: python-snippets.slow.test.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pythonSnippets } from "./python-snippets.js";
import { REPO } from "./shared.js";

describe("pythonSnippets", () => {
  it("takes the python blocks of one section, down to the next heading of its level", () => {
    const md = [
      "# T",
      "```python",
      "before()",
      "```",
      "## From Python",
      "text",
      "```python",
      "a()",
      "```",
      "```sh",
      "not python",
      "```",
      "### a subsection",
      "```python",
      "b()",
      "c()",
      "```",
      "## Next",
      "```python",
      "after()",
      "```",
    ].join("\n");
    expect(pythonSnippets(md, "From Python")).toEqual(["a()\n", "b()\nc()\n"]);
    expect(() => pythonSnippets(md, "From R")).toThrow('no section "From R"');
    expect(() => pythonSnippets("## X\n```python\nopen(", "X")).toThrow("not closed");
  });

  it("finds the README's four: pandas, polars, DuckDB, datasets, each on the example output", () => {
    const snippets = pythonSnippets(readFileSync(join(REPO, "README.md"), "utf8"), "From Python");
    expect(snippets.map((s) => /^(?:import|from) (\w+)/m.exec(s)?.[1])).toEqual([
      "pandas",
      "polars",
      "duckdb",
      "datasets",
    ]);
    for (const s of snippets) expect(s).toContain("out/train_synthetic.parquet");
    expect(snippets.find((s) => s.includes("datasets"))).toContain('load_dataset("parquet"');
  });
});
