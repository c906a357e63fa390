// convkit-clariq-eval: a drop-in for ClariQ's clariq_eval_tool.py (same flags, stdout and out_file).
import { runClariqEval } from "@convkit/clariq-eval";
import { defineCommand } from "@convkit/cli";
import { checkOutputPath, writeAtomic, writeStdout } from "@convkit/io";

/** The `convkit-clariq-eval` command; flags as upstream's argparse declares them. */
export const clariqEvalCommand = defineCommand({
  name: "convkit-clariq-eval",
  summary:
    "Input arguments for ClariQ eval tool. Evaluates clarification_need, question_relevance and document_relevance runs exactly as clariq_eval_tool.py.",
  usage:
    "convkit-clariq-eval [-h] --eval_task EVAL_TASK [--experiment_type EXPERIMENT_TYPE] [--data_dir DATA_DIR] --run_file RUN_FILE [--out_file OUT_FILE] [--multi_turn] [--leaderboard]",
  options: [
    {
      name: "eval_task",
      type: "string",
      required: true,
      description: "Defines the evaluation task.",
      choices: ["clarification_need", "document_relevance", "question_relevance"],
    },
    {
      name: "experiment_type",
      type: "string",
      default: "dev",
      description: "The run file will be evaluated on this data.",
      choices: ["train", "dev", "test"],
    },
    { name: "data_dir", type: "string", default: "../data/", description: "Path to the data directory." },
    {
      name: "run_file",
      type: "string",
      required: true,
      description: "Path to the run file (- for stdin); TREC text or a Parquet table, told by content.",
    },
    {
      name: "out_file",
      type: "string",
      default: "",
      description: "Path to the evaluation output json file.",
    },
    {
      name: "multi_turn",
      type: "boolean",
      description: "Results are on multi-turn conversations (single-turn if absent).",
    },
    { name: "leaderboard", type: "boolean", description: "Print in the format of the leaderboard." },
  ],
  examples: [
    "convkit-clariq-eval --eval_task question_relevance --data_dir ../shared/data/clariq --run_file ../shared/data/clariq/sample_runs/dev_bm25",
    "convkit-clariq-eval --eval_task document_relevance --multi_turn --data_dir DIR --run_file dev_bm25_multi_turn --out_file perf.json",
  ],
  async run(o) {
    // The output file checked before the evaluation: a folder or read-only place is one line, no work lost.
    if (o.out_file !== "") await checkOutputPath(o.out_file);
    const result = await runClariqEval(o);
    const { outFile } = result;
    if (outFile !== undefined) await writeAtomic(o.out_file, (sink) => sink.write(outFile));
    await writeStdout(result.stdout);
    return 0;
  },
});
