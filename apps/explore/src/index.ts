// convkit-explore: a local, read-only web page over the data, the conversations, the eval dicts, the runs and the passages.
import { defineCommand } from "@convkit/cli";
import { Explorer, removeExplorerTempDirs, serveExplorer, staticPage, VIEW_NAMES } from "@convkit/explore";
import { removePendingTempFiles, UsageError, writeAtomic } from "@convkit/io";

/** The `convkit-explore` command. */
export const exploreCommand = defineCommand({
  name: "convkit-explore",
  summary:
    "Look at ClariQ and Qulac, gen:synthetic's conversations, eval dicts, runs, passages and iKAT 2025 responses in a browser: a local, read-only server and page (every asset bundled, no network), or one self-contained HTML file of a view.",
  usage:
    "convkit-explore [--data DIR] [--qulac FILE] [--synthetic FILE]... [--eval-dict FILE]... [--qrels FILE] [--run FILE]... [--topics FILE] [--passages FILE]... [--port 8321] [--host 127.0.0.1]\n       convkit-explore ... --static OUT.html [--view '#/runs?measure=P1']",
  options: [
    {
      name: "data",
      type: "string",
      metavar: "DIR",
      description: "ClariQ's data folder (train.tsv, dev.tsv, test_with_labels.tsv, question_bank.tsv)",
    },
    {
      name: "qulac",
      type: "string",
      metavar: "FILE",
      description: "qulac.json (Qulac ids of ClariQ's questions)",
    },
    {
      name: "synthetic",
      type: "string",
      multiple: true,
      metavar: "FILE",
      description: "a synthetic set in gen:synthetic's JSONL",
    },
    {
      name: "eval-dict",
      type: "string",
      multiple: true,
      metavar: "FILE",
      description: "a ClariQ eval dict (.pkl or .pkl.tar.gz)",
    },
    {
      name: "qrels",
      type: "string",
      metavar: "FILE",
      description: "TREC qrels for --run (without: ClariQ runs, scored with --data)",
    },
    {
      name: "run",
      type: "string",
      multiple: true,
      metavar: "FILE",
      description:
        "a run: an iKAT 2025 run (JSON Lines: the Responses view), TREC (text or Parquet) with --qrels, else ClariQ (compared against the first)",
    },
    {
      name: "topics",
      type: "string",
      metavar: "FILE",
      description:
        "iKAT 2025 topics (2025_test_topics.json): each turn's utterances and gold response beside the runs' responses",
    },
    {
      name: "split",
      type: "string",
      choices: ["train", "dev", "test"],
      default: "dev",
      description: "ClariQ split of the runs",
    },
    {
      name: "passages",
      type: "string",
      multiple: true,
      metavar: "FILE",
      description:
        "documents or passages ({id, contents} JSONL, ClueWeb22) or iKAT's official passages JSONL: also the cited passages' texts",
    },
    {
      name: "splitters",
      type: "list",
      default: [],
      metavar: "A,B",
      description:
        "the two sentence splitters of the Passages view (default: spacy with --spacy-model, else sentencizer; and heuristic)",
    },
    {
      name: "spacy-model",
      type: "string",
      metavar: "DIR",
      description: "spaCy pipeline folder (en_core_web_sm) for the spacy splitter",
    },
    {
      name: "host",
      type: "string",
      default: "127.0.0.1",
      description: "address to bind (another than loopback exposes the files named here)",
    },
    { name: "port", type: "integer", min: 0, default: 8321, description: "port (0: any free one)" },
    {
      name: "static",
      type: "string",
      metavar: "OUT.html",
      description: "write one self-contained page of --view (its data inlined) instead of serving",
    },
    {
      name: "view",
      type: "string",
      metavar: "URL",
      description: `the view of --static, as the page's URL after # (views: ${VIEW_NAMES.join(", ")}; default: the first that has data)`,
    },
  ],
  // The server stops on SIGINT / SIGTERM by closing and removing its temporary files (exit 0).
  ownsSignals: true,
  examples: [
    "convkit-explore --data ../shared/data/clariq",
    "convkit-explore --data ../shared/data/clariq --synthetic out/synthetic/dev_synthetic.jsonl --eval-dict multi_turn_dev_eval.pkl.tar.gz --run dev_no_q --run dev_bm25",
    "convkit-explore --qrels qrels.txt --run bm25.run --run rm3.run --static compare.html --view '#/runs'",
    "convkit-explore --topics 2025_test_topics.json --run a.jsonl --run b.jsonl --passages passages.jsonl --qrels qrels.txt",
  ],
  async run(o) {
    if (o.splitters.length !== 0 && o.splitters.length !== 2)
      throw new UsageError(`--splitters takes two names (A,B), not ${o.splitters.length}`);
    // A signal while the inputs are opened (or a page written) removes what was made and exits;
    // once serving, it closes the server and the command ends with 0.
    let serving: (() => void) | undefined;
    const onSignal = (sig: NodeJS.Signals) => {
      if (serving) return serving();
      removeExplorerTempDirs();
      removePendingTempFiles();
      process.exit(sig === "SIGINT" ? 130 : 143);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    const explorer = await Explorer.open({
      data: o.data,
      qulac: o.qulac,
      synthetic: o.synthetic,
      evalDicts: o["eval-dict"],
      qrels: o.qrels,
      runs: o.run,
      topics: o.topics,
      split: o.split,
      passages: o.passages,
      ...splitterPair(o.splitters),
      spacyModel: o["spacy-model"],
    });
    try {
      if (o.static !== undefined) {
        const html = await staticPage(explorer, o.view);
        await writeAtomic(o.static, async (s) => {
          await s.write(Buffer.from(html));
        });
        return 0;
      }
      const { server, url } = await serveExplorer(explorer, { host: o.host, port: o.port });
      process.stderr.write(
        `convkit-explore: ${url} (opened in ${explorer.openSeconds.toFixed(2)} s; Ctrl-C stops)\n`,
      );
      await new Promise<void>((done) => {
        serving = done;
      });
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      return 0;
    } finally {
      await explorer.close();
    }
  },
});

/** The two splitters of the Passages view, when two are given (the command checks there are 0 or 2). */
function splitterPair<S>(list: readonly S[]): { splitters?: readonly [S, S] } {
  const [a, b] = list;
  return list.length === 2 && a !== undefined && b !== undefined ? { splitters: [a, b] } : {};
}
