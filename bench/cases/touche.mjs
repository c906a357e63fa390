// Bench case: the Touché TIRA command's retrieval (two streaming passes) over a generated
// args.me-shaped file, 50 topics, DirichletLM. Prints arguments, input bytes, time, peak RSS.
import { mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readToucheTopics } from "@convkit/formats";
import { corpusFiles, retrieveTouche } from "@convkit/touche";
import { report } from "./report.mjs";

const [argsFile, work] = process.argv.slice(2);
const input = join(work, "touche-in");
rmSync(input, { recursive: true, force: true });
mkdirSync(input, { recursive: true });
symlinkSync(resolve(argsFile), join(input, "debateorg.json"));
const words = "tenure teachers school policy evidence public students debate argument".split(" ");
writeFileSync(
  join(input, "topics.xml"),
  `<topics>\n${Array.from({ length: 50 }, (_, i) => `<topic><number>${i + 1}</number><title>Should ${words[i % 9]} ${words[(i * 7) % 9]} matter?</title></topic>`).join("\n")}\n</topics>\n`,
);
const t0 = performance.now();
let docs = 0;
const run = await retrieveTouche(
  await corpusFiles(input),
  await readToucheTopics(join(input, "topics.xml")),
  { kind: "dirichlet" },
  {
    onPass: (pass, n) => {
      if (pass === 1) docs = n;
    },
  },
);
report({
  records: docs,
  lines: run.length,
  bytes: statSync(argsFile).size,
  seconds: (performance.now() - t0) / 1000,
});
