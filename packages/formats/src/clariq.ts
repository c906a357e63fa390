// ClariQ's TSVs and run files: topics/facets/questions, question bank, human multi-turn data, runs.
import { join } from "node:path";
import {
  describeFound,
  findInFolder,
  InputError,
  type Row,
  type WriteOptions,
  writeDelimited,
} from "@convkit/io";
import { expectHeader, expectWidth, floatField, intField, textField } from "./fields.js";
import { mapBatches, writeLines } from "./lines.js";
import type {
  ClarificationNeedEntry,
  ClariqRow,
  ClariqTestTopic,
  HumanMultiTurnRow,
  MultiTurnRunEntry,
  QuestionBankEntry,
} from "./records.js";
import { displayName, mapRows, rowsOf, whitespaceRowsOf } from "./table.js";
import { formatScore } from "./trec.js";

/** Columns of `train.tsv`, `dev.tsv` and `test_with_labels.tsv`. */
export const CLARIQ_COLUMNS = [
  "topic_id",
  "initial_request",
  "topic_desc",
  "clarification_need",
  "facet_id",
  "facet_desc",
  "question_id",
  "question",
  "answer",
] as const;

const FACET = /^F\d+$/;
const QID = /^Q\d+$/;

function idField(file: string, row: Row, k: number, re: RegExp, what: string): string {
  const v = textField(file, row, k);
  if (!re.test(v)) throw new InputError(file, { line: row.line }, what, describeFound(v));
  return v;
}

/**
 * A file of a ClariQ data folder by its upstream name (`dev.tsv`, `question_bank.tsv`): as named,
 * gzipped or bzipped (`dev.tsv.gz`), or the bundled fixtures' `dev.sample.tsv`. When none is
 * there, the upstream path, so that the error names it.
 */
export function clariqFile(dataDir: string, name: string): string {
  return findInFolder(dataDir, [name, name.replace(/\.tsv$/, ".sample.tsv")]) ?? join(dataDir, name);
}

/** Rows of a ClariQ topics TSV (train/dev/test_with_labels, or any TSV with the same columns). */
export function readClariqRows(path: string): AsyncIterable<ClariqRow[]> {
  const file = displayName(path);
  return mapRows(
    rowsOf(path),
    (row) => {
      expectWidth(file, row, 9);
      return {
        topic_id: intField(file, row, 0, "an integer topic_id"),
        initial_request: textField(file, row, 1),
        topic_desc: textField(file, row, 2),
        clarification_need: intField(file, row, 3, "an integer clarification_need"),
        facet_id: idField(file, row, 4, FACET, "a facet id like F0001"),
        facet_desc: textField(file, row, 5),
        question_id: idField(file, row, 6, QID, "a question id like Q00001"),
        question: textField(file, row, 7),
        answer: textField(file, row, 8),
      };
    },
    (h) => expectHeader(file, h, CLARIQ_COLUMNS),
  );
}

/** Writes ClariQ topic rows as pandas `to_csv(sep='\t', index=False)` did. */
export function writeClariqRows(
  target: string,
  batches: AsyncIterable<readonly ClariqRow[]> | Iterable<readonly ClariqRow[]>,
  options?: WriteOptions,
): Promise<number> {
  return writeDelimited(
    target,
    CLARIQ_COLUMNS,
    mapBatches(batches, (r) => CLARIQ_COLUMNS.map((c) => r[c])),
    options,
  );
}

/** `test.tsv`: `topic_id<TAB>initial request`. */
export function readClariqTestTopics(path: string): AsyncIterable<ClariqTestTopic[]> {
  const file = displayName(path);
  return mapRows(
    rowsOf(path),
    (row) => {
      expectWidth(file, row, 2);
      return {
        topic_id: intField(file, row, 0, "an integer topic_id"),
        initial_request: textField(file, row, 1),
      };
    },
    (h) => expectHeader(file, h, ["topic_id", "initial request"]),
  );
}

/** `question_bank.tsv`; the empty question of `Q00001` is kept as `""`. */
export function readQuestionBank(path: string): AsyncIterable<QuestionBankEntry[]> {
  const file = displayName(path);
  return mapRows(
    rowsOf(path),
    (row) => {
      expectWidth(file, row, 2);
      return {
        question_id: idField(file, row, 0, QID, "a question id like Q00001"),
        question: textField(file, row, 1),
      };
    },
    (h) => expectHeader(file, h, ["question_id", "question"]),
  );
}

export function writeQuestionBank(
  target: string,
  batches: AsyncIterable<readonly QuestionBankEntry[]> | Iterable<readonly QuestionBankEntry[]>,
  options?: WriteOptions,
): Promise<number> {
  return writeDelimited(
    target,
    ["question_id", "question"],
    mapBatches(batches, (r) => [r.question_id, r.question]),
    options,
  );
}

const HUMAN_COLUMNS = [
  "",
  "Unnamed: 0",
  "topic_id",
  "facet_id",
  "facet",
  "initial_request",
  "question1",
  "answer1",
  "question2",
  "answer2",
  "question3",
  "answer3",
];

/** `multi_turn_human_generated_data.tsv`: turns with an empty question are left out. */
export function readHumanMultiTurn(path: string): AsyncIterable<HumanMultiTurnRow[]> {
  const file = displayName(path);
  return mapRows(
    rowsOf(path),
    (row) => {
      expectWidth(file, row, 12);
      const turns = [];
      for (let t = 0; t < 3; t++) {
        const q = textField(file, row, 6 + 2 * t);
        if (q !== "") turns.push({ question: q, answer: textField(file, row, 7 + 2 * t) });
      }
      return {
        index: textField(file, row, 0),
        unnamed_0: textField(file, row, 1),
        topic_id: intField(file, row, 2, "an integer topic_id"),
        facet_id: textField(file, row, 3),
        facet: textField(file, row, 4),
        initial_request: textField(file, row, 5),
        turns,
      };
    },
    (h) => expectHeader(file, h, HUMAN_COLUMNS),
  );
}

/** A clarification-need run: `topic label` per line. */
export function readClarificationNeedRun(path: string): AsyncIterable<ClarificationNeedEntry[]> {
  const file = displayName(path);
  return mapRows(whitespaceRowsOf(path), (row) => {
    expectWidth(file, row, 2, "space-separated fields (topic label)");
    return {
      topic_id: intField(file, row, 0, "an integer topic id"),
      label: intField(file, row, 1, "an integer label"),
    };
  });
}

export function writeClarificationNeedRun(
  target: string,
  batches: AsyncIterable<readonly ClarificationNeedEntry[]> | Iterable<readonly ClarificationNeedEntry[]>,
): Promise<number> {
  return writeLines(target, batches, (e) => `${e.topic_id} ${e.label}`);
}

/** A multi-turn run: `context 0 "question text" rank score run`, the text quoted as CSV does. */
export function readMultiTurnRun(path: string): AsyncIterable<MultiTurnRunEntry[]> {
  const file = displayName(path);
  return mapRows(rowsOf(path, { delimiter: " " }), (r) => {
    const fields = r.fields;
    if (fields.length !== 6) {
      throw new InputError(
        file,
        { line: r.line },
        'six fields: context 0 "question" rank score run',
        `${fields.length} fields`,
      );
    }
    return {
      context_id: intField(file, r, 0, "an integer context id"),
      q0: textField(file, r, 1),
      question: textField(file, r, 2),
      rank: intField(file, r, 3, "an integer rank"),
      score: floatField(file, r, 4, "a numeric score"),
      run: textField(file, r, 5),
    };
  });
}

/** Quotes a question as ClariQ's runs do: always quoted, `"` doubled. */
export function quoteQuestion(q: string): string {
  return `"${q.replaceAll('"', '""')}"`;
}

export function writeMultiTurnRun(
  target: string,
  batches: AsyncIterable<readonly MultiTurnRunEntry[]> | Iterable<readonly MultiTurnRunEntry[]>,
): Promise<number> {
  return writeLines(
    target,
    batches,
    (e) => `${e.context_id} ${e.q0} ${quoteQuestion(e.question)} ${e.rank} ${formatScore(e.score)} ${e.run}`,
  );
}
