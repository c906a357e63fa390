// The golden multi-turn eval dict of ../shared (40 MB pickle in a tar.gz) against every per-context value the upstream tool printed: over 15 s on a busy 2-core machine.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { readPickleFile } from "@convkit/pickle";
import { requires, shared } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { readMultiTurnRun, readQuestionBank } from "./clariq.js";
import { type EvalDict, evalPair, toEvalDict } from "./dicts.js";
import { collect } from "./table.js";

/** The value the upstream tool reports for a facet/context given the chosen question (none: 0). */
function pick(d: EvalDict, metric: string, ctx: string | number, qid: string | null | undefined): number {
  if (qid === null) return 0;
  const m = d.get(metric)!.get(ctx)!;
  const v = (qid !== undefined && qid !== "MAX" ? m.get(qid) : undefined) ?? m.get("MIN")!;
  return evalPair(v).with_answer;
}

requires("shared").describe("golden multi-turn eval dict from ../shared/golden (slow)", () => {
  it("multi_turn_dev_eval.pkl.tar.gz (protocol 3 in a tar.gz) gives the per-context values upstream printed", async () => {
    const file = shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz");
    const d = toEvalDict(file, await readPickleFile(file));
    expect(d.get("NDCG20")!.size).toBe(14867);
    const bank = new Map(
      (await collect(readQuestionBank(shared("data", "clariq", "question_bank.tsv")))).map((q) => [
        q.question,
        q.question_id,
      ]),
    );
    const run = await collect(
      readMultiTurnRun(shared("data", "clariq", "sample_runs", "dev_best_question_multi_turn")),
    );
    const first = new Map<number, string>();
    for (const e of run) if (!first.has(e.context_id)) first.set(e.context_id, e.question);
    const expected = JSON.parse(
      gunzipSync(
        readFileSync(
          shared(
            "golden",
            "clariq-eval",
            "expected",
            "document_relevance.dev.multi.dev_best_question_multi_turn.json.gz",
          ),
        ),
      ).toString("utf8"),
    );
    let checked = 0;
    for (const [metric, contexts] of Object.entries(
      expected.out_file as Record<string, Record<string, number>>,
    )) {
      for (const [ctx, value] of Object.entries(contexts)) {
        const q = first.get(Number(ctx));
        const qid = q === undefined ? null : bank.get(q);
        expect(pick(d, metric, Number(ctx), qid), `${metric} ${ctx}`).toBe(value);
        checked++;
      }
    }
    expect(checked).toBe(11 * 14867);
  }, 240_000);
});
