// Packages never print; apps do. @convkit/cli (the apps' command framework) is the one package
// that writes to stdout/stderr and the one no other package imports: a package reports through
// callbacks, events or return values (queue's RunReport, a worker's say/log) and its app prints.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

/** What may name the standard streams, and why. */
const ALLOWED: Record<string, string> = {
  // `-` as an output: a command's output bytes through io's sink, not messages.
  "packages/io/src/sink.ts": "the '-' output",
};

/** Packages exempt as a whole: the command framework, and what only tests run (a vitest reporter). */
const EXEMPT = new Set(["cli", "test-helpers"]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === "testdata" ? [] : sources(p);
    return p.endsWith(".ts") && !p.endsWith(".test.ts") ? [p] : [];
  });
}

/** Code without comments (a comment may name stderr). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

/** What prints: console.*, or process.stdout / process.stderr used other than to ask whether it is a terminal. */
const PRINTS = /\bconsole\.\w+|\bprocess\.(?:stdout|stderr)\b(?!\.isTTY)/;
const IMPORTS_CLI = /(?:from|import)\s+["']@convkit\/cli["']|import\(\s*["']@convkit\/cli["']\s*\)/;

/** The rule's findings in `files` (paths relative to the repo). */
function violations(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    const text = code(readFileSync(join(REPO, f), "utf8"));
    if (IMPORTS_CLI.test(text)) found.push(`${f}: imports @convkit/cli`);
    if (!(f in ALLOWED) && PRINTS.test(text)) found.push(`${f}: prints (${PRINTS.exec(text)?.[0]})`);
  }
  return found;
}

const packageSources = readdirSync(join(REPO, "packages"))
  .filter((d) => !EXEMPT.has(d))
  .flatMap((d) => sources(join(REPO, "packages", d, "src")))
  .map((p) => relative(REPO, p));

describe("packages never print (apps do)", () => {
  it("no package but cli imports @convkit/cli or writes to stdout/stderr", () => {
    expect(packageSources.length).toBeGreaterThan(100);
    expect(violations(packageSources)).toEqual([]);
  });

  it("no package but cli declares @convkit/cli as a dependency", () => {
    for (const d of readdirSync(join(REPO, "packages")).filter((x) => x !== "cli")) {
      const pkg = JSON.parse(readFileSync(join(REPO, "packages", d, "package.json"), "utf8"));
      expect(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }), d).not.toContain("@convkit/cli");
    }
  });
});
