// convkit-explore --static never writes an empty page: no inputs, a view without data, or runs it
// would leave out are usage errors; without --view the first view that has data is written.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

it("--static: nothing to show, a view without data, a lone TREC run: one usage line, exit 2, no page", () => {
  const dir = tempDir();
  const run = join(dir, "a.run");
  writeFileSync(run, "1 Q0 d1 1 1.5 tag\n");
  const page = join(dir, "page.html");
  for (const [args, what] of [
    [[], /nothing to show/],
    [["--run", run], /--run: TREC runs are compared with --qrels and at least two runs/],
  ] as const) {
    const r = runCli("explore", [...args, "--static", page]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(what);
    expect(existsSync(page)).toBe(false);
  }
});

it("--static without --view writes the first view that has data; --view of one without data is refused", () => {
  const dir = tempDir();
  const topics = join(dir, "topics.json");
  writeFileSync(
    topics,
    JSON.stringify([
      {
        number: "1-1",
        title: "T",
        ptkb: ["I like tea."],
        responses: [
          {
            turn_id: 1,
            user_utterance: "Hi?",
            resolved_utterance: "Hi?",
            response: "Hello.",
            relevant_ptkbs: [],
            citations: [],
          },
        ],
      },
    ]),
  );
  const page = join(dir, "page.html");
  const r = runCli("explore", ["--topics", topics, "--static", page]);
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(page, "utf8")).toMatch(/<title>convkit explore: responses<\/title>/);
  const bad = runCli("explore", ["--topics", topics, "--static", join(dir, "b.html"), "--view", "#/runs"]);
  expect(bad.code, bad.stderr).toBe(2);
  expect(bad.stderr).toMatch(/--view #\/runs: that view has no data here \(views with data: #\/responses\)/);
  expect(existsSync(join(dir, "b.html"))).toBe(false);
});
