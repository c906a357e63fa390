// convkit's commands: one entry per app, loaded only when it runs (start-up stays that of one app).
// The summaries are what `convkit help` lists; each app's own --help has the details.

/** A `convkit <name>` command: what it does, and its app's process entry, loaded on demand. */
export interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<{ main(argv: string[]): Promise<void> }>;
}

/** Every command, by the name users type (`convkit trec-eval`, alias `convkit-trec-eval`). */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  convert: {
    summary:
      "any supported file (plain, .gz, .bz2, .tar.gz, split parts) to JSON Lines or Parquet, format detected",
    load: () => import("@convkit/convert-app/bin"),
  },
  data: {
    summary: "fetch: download the real ClariQ and Qulac files",
    load: () => import("@convkit/data-app/bin"),
  },
  "gen-synthetic": {
    summary:
      "ClariQ's synthetic multi-turn sets (JSONL, Parquet, pickle tar.gz, contexts TSV); Qulac's hist dict",
    load: () => import("@convkit/gen-synthetic-app/bin"),
  },
  "gen-eval": {
    summary: "ClariQ's document-relevance eval dicts regenerated",
    load: () => import("@convkit/gen-eval-app/bin"),
  },
  baselines: {
    summary: "ClariQ's baselines: BM25 single- and multi-turn, no-question, clarification need, oracles",
    load: () => import("@convkit/baselines-app/bin"),
  },
  "clariq-eval": {
    summary: "drop-in for ClariQ's clariq_eval_tool.py: same flags, same output",
    load: () => import("@convkit/clariq-eval-app/bin"),
  },
  "trec-eval": {
    summary: "trec_eval's measures, flags (-q -c -l -M -m) and output, line for line",
    load: () => import("@convkit/trec-eval-app/bin"),
  },
  segment: {
    summary: "documents into iKAT / MS MARCO passages, texts into sentences (spaCy's senter), agreement",
    load: () => import("@convkit/segment-app/bin"),
  },
  ikat: {
    summary:
      "TREC iKAT: run validation, conversion, topics, PTKB and passage evaluation, passage-id database",
    load: () => import("@convkit/ikat-app/bin"),
  },
  touche: {
    summary: "Touché 2021 Task 1: retrieval over args.me and its evaluation",
    load: () => import("@convkit/touche-app/bin"),
  },
  compare: {
    summary: "paired significance tests between runs per measure, corrections, tables for papers",
    load: () => import("@convkit/compare-app/bin"),
  },
  explore: {
    summary: "look at the data in a browser: local, read-only",
    load: () => import("@convkit/explore-app/bin"),
  },
  worker: {
    summary: "take convkit's jobs from a Redis queue and run them on this machine",
    load: () => import("@convkit/worker-app/bin"),
  },
  queue: {
    summary: "a queue's runs: status, retry failed units, clean",
    load: () => import("@convkit/queue-app/bin"),
  },
};
