// The README's "Parquet tables" lists every declared schema of @convkit/formats with its columns
// and types as the code declares them (a schema added or changed without its row fails here).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as formats from "@convkit/formats";
import { type TableSchema, typeText } from "@convkit/parquet";
import { REPO } from "@convkit/test-helpers";
import { expect, it } from "vitest";

function isSchema(v: unknown): v is TableSchema {
  return typeof v === "object" && v !== null && "columns" in v && "what" in v;
}

it("README's Parquet tables: one row per declared schema, columns and types as declared", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Parquet tables"), readme.indexOf("## CLIs"));
  const rows = new Map<string, string[]>();
  for (const line of section.split("\n")) {
    const m = /^\|\s*`([A-Z0-9_]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (m)
      rows.set(
        m[1]!,
        m[2]!.split("|").map((c) => c.trim()),
      );
  }
  const declared = Object.entries(formats).filter(([name, v]) => name.endsWith("_SCHEMA") && isSchema(v));
  expect(declared.length).toBeGreaterThan(20);
  for (const [name, schema] of declared as [string, TableSchema][]) {
    const columns = schema.columns
      .map((c) => `\`${c.name}\` \`${typeText(c)}${c.type !== "list" && c.nullable ? "?" : ""}\``)
      .join(", ");
    expect(rows.get(name), name).toEqual([schema.what, columns]);
  }
  expect([...rows.keys()].sort()).toEqual(declared.map(([n]) => n).sort());
});
