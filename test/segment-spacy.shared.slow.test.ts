// convkit-segment with bad spaCy model folders (made here from the shared model): one line, exit 2, nothing written, for each
// of its five commands (5-12 s a case on a busy 2-core machine).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readSpacyGoldens, requires, runCli, shared, spacyModel, tempDir } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";

// Read from ../shared before the tests (not while the file is collected: without shared/ they are skipped).
let MODEL: string;
let PASSAGES: string;

requires("shared").describe(
  "convkit-segment: bad model folders: one line, exit 2, nothing written (shared model, slow)",
  () => {
    let dir: string;
    let input: string;
    beforeAll(() => {
      MODEL = spacyModel();
      PASSAGES = shared("data", "ikat", "2023_train_topics_psg_text.jsonl");
      dir = tempDir("spacy-cli-");
      // Every 8th golden text, and every long one (iKAT documents as the chunker sees them).
      const sample = readSpacyGoldens().filter((g, i) => i % 8 === 0 || g.id.startsWith("ikat-long"));
      input = join(dir, "texts.jsonl");
      writeFileSync(input, `${sample.map((g) => JSON.stringify({ id: g.id, text: g.text })).join("\n")}\n`);
    });

    const broken = (name: string, mend: (d: string) => void): string => {
      const d = join(dir, name);
      cpSync(MODEL, d, { recursive: true });
      mend(d);
      return d;
    };
    // Each broken folder is made by its test (from the model read in beforeAll).
    const cases: [string, () => string, RegExp][] = [
      ["not a folder", () => join(dir, "nothing-here"), /nothing-here: expected a spaCy pipeline folder/],
      [
        "missing tokenizer",
        () => broken("no-tokenizer", (d) => rmSync(join(d, "tokenizer"))),
        /tokenizer: expected a file of the spaCy pipeline, found no such file/,
      ],
      [
        "another architecture",
        () =>
          broken("tagger-v1", (d) => {
            const p = join(d, "config.cfg");
            writeFileSync(
              p,
              readFileSync(p, "utf8").replace(
                '[components.senter.model]\n@architectures = "spacy.Tagger.v2"',
                '[components.senter.model]\n@architectures = "spacy.Tagger.v1"',
              ),
            );
          }),
        /config\.cfg: expected \[components\.senter\.model\] @architectures = "spacy\.Tagger\.v2".*found "spacy\.Tagger\.v1"/,
      ],
      [
        "truncated weights",
        () => broken("cut-model", (d) => truncateSync(join(d, "senter", "model"), 50_000)),
        /senter\/model: expected a complete msgpack file/,
      ],
      [
        "a folder where config.cfg should be",
        () =>
          broken("config-dir", (d) => {
            rmSync(join(d, "config.cfg"));
            mkdirSync(join(d, "config.cfg"));
          }),
        /config\.cfg: expected a readable file of the spaCy pipeline, found EISDIR/,
      ],
      [
        "truncated lookups",
        () => broken("cut-lookups", (d) => truncateSync(join(d, "vocab", "lookups.bin"), 1000)),
        /lookups\.bin: expected a complete msgpack file/,
      ],
    ];
    for (const [what, makeModel, message] of cases)
      it(what, () => {
        const model = makeModel();
        for (const args of [
          ["run", "--spacy-model", model, input, "-o", join(dir, `out-${what}`)],
          ["run", "--threads", "2", "--spacy-model", model, input, "-o", join(dir, `out-${what}`)],
          [
            "sentences",
            "--threads",
            "2",
            "--spacy-model",
            model,
            input,
            "-o",
            join(dir, `out-${what}.jsonl`),
          ],
          ["sentences", "--spacy-model", model, input, "-o", join(dir, `out-${what}.jsonl`)],
          ["agreement", "--spacy-model", model, "--splitter", "spacy", "--passages", PASSAGES],
        ]) {
          const r = runCli("segment", args);
          expect(r.code, r.stderr).toBe(2);
          expect(r.stderr).toMatch(message);
          expect(r.stderr.trim().split("\n").length).toBe(1);
          expect(r.stdout).toBe("");
        }
        expect(existsSync(join(dir, `out-${what}`, "texts.jsonl"))).toBe(false);
        expect(existsSync(join(dir, `out-${what}.jsonl`))).toBe(false);
      }, 180_000);
  },
);
