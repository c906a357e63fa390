// The README's Python snippets run as they stand on real files: each ```python block of a section, its example paths replaced, must print the file's row count.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { REPO, tempDir } from "./shared.js";

/**
 * The ```python blocks of the section of `markdown` headed `heading` (any level), in order: from
 * that heading to the next one of its level or above. Throws when there is no such section.
 */
export function pythonSnippets(markdown: string, heading: string): string[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, "").trim() === heading);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const level = lines[start]!.indexOf(" ");
  const out: string[] = [];
  let code: string[] | undefined;
  for (const line of lines.slice(start + 1)) {
    if (code) {
      if (/^```\s*$/.test(line)) {
        out.push(`${code.join("\n")}\n`);
        code = undefined;
      } else code.push(line);
      continue;
    }
    const h = /^(#{1,6}) /.exec(line);
    if (h && h[1]!.length <= level) break;
    if (/^```python\s*$/.test(line)) code = [];
  }
  if (code) throw new Error(`section "${heading}": a python block is not closed`);
  return out;
}

/** A real file standing in for an example path of the README, with its row count. */
export interface SnippetFile {
  path: string;
  rows: number;
}

/** One snippet's run. */
export interface SnippetRun {
  /** The snippet as the README has it. */
  code: string;
  /** The example path it names (a key of `files`). */
  example: string;
  stdout: string;
  seconds: number;
}

/**
 * Runs each ```python snippet of the README's section `heading` with python3 (declare
 * `requires("python-parquet")`): each must name one example path of `files` (e.g.
 * `out/train_synthetic.parquet`), which is replaced by the real file's path, and print that file's
 * row count as its last line. Runs in a temp folder, Hugging Face offline with its home and cache
 * there (removed after), so nothing is written elsewhere. Throws at the first snippet that fails,
 * with its text and what it printed.
 *
 *     runReadmePythonSnippets("From Python", {
 *       "out/train_synthetic.parquet": { path: join(out, "train_synthetic.parquet"), rows: 744_869 },
 *     });
 */
export function runReadmePythonSnippets(
  heading: string,
  files: Readonly<Record<string, SnippetFile>>,
  readme = join(REPO, "README.md"),
): SnippetRun[] {
  const snippets = pythonSnippets(readFileSync(readme, "utf8"), heading);
  if (snippets.length === 0) throw new Error(`${readme}: no python block under "${heading}"`);
  for (const { path } of Object.values(files))
    if (/["'\\\n]/.test(path))
      throw new Error(`${path}: a path with quotes or backslashes cannot stand in a snippet`);
  const runs: SnippetRun[] = [];
  for (const code of snippets) {
    const example = Object.keys(files).find((e) => code.includes(e));
    if (example === undefined)
      throw new Error(
        `a snippet under "${heading}" names none of ${Object.keys(files).join(", ")}:\n${code}`,
      );
    const { path, rows } = files[example]!;
    const tmp = tempDir("convkit-snippet-");
    try {
      const start = performance.now();
      const r = spawnSync("python3", ["-"], {
        input: code.replaceAll(example, path),
        cwd: tmp,
        encoding: "utf8",
        timeout: 600_000,
        maxBuffer: 1 << 26,
        env: {
          ...process.env,
          TMPDIR: tmp,
          HF_HOME: join(tmp, "hf"),
          HF_HUB_OFFLINE: "1",
          HF_DATASETS_OFFLINE: "1",
          HF_DATASETS_DISABLE_PROGRESS_BARS: "1",
        },
      });
      const seconds = (performance.now() - start) / 1000;
      const last = r.stdout?.trim().split("\n").at(-1) ?? "";
      if (r.status !== 0 || last !== String(rows))
        throw new Error(
          `this snippet under "${heading}", on ${path}, ${r.status === 0 ? `printed ${JSON.stringify(last)}, not ${rows}` : `exited ${r.status ?? r.signal}: ${r.stderr.trim().split("\n").slice(-3).join(" | ")}`}:\n${code}`,
        );
      runs.push({ code, example, stdout: r.stdout, seconds });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return runs;
}
