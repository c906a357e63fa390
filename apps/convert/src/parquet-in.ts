// convert's Parquet input: a table convkit wrote, known by its columns matching one declared schema
// exactly (names and types), read back as the rows of that schema.
import {
  ARGS_ME_SCHEMA,
  CLARIFICATION_NEED_SCHEMA,
  CLARIQ_ROW_SCHEMA,
  CLARIQ_TEST_TOPIC_SCHEMA,
  CLUEWEB22_SCHEMA,
  COMPARE_PAIR_SCHEMA,
  COMPARE_VALUE_SCHEMA,
  EVAL_ENTRY_SCHEMA,
  HUMAN_MULTI_TURN_SCHEMA,
  IKAT_RESPONSE_SCHEMA,
  IKAT_TURN_SCHEMA,
  IKAT25_RESPONSE_SCHEMA,
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  MULTI_TURN_RUN_SCHEMA,
  PASSAGE_HASH_SCHEMA,
  PASSAGE_SCHEMA,
  PASSAGE_WITH_OFFSETS_SCHEMA,
  QRELS_ENTRY_SCHEMA,
  QUESTION_BANK_SCHEMA,
  QULAC_HIST_RECORD_SCHEMA,
  QULAC_ROW_SCHEMA,
  RANX_QRELS_SCHEMA,
  RANX_RUN_SCHEMA,
  RUN_ENTRY_SCHEMA,
  SYNTHETIC_RECORD_SCHEMA,
  TOUCHE_TOPIC_SCHEMA,
  TREC_EVAL_VALUE_SCHEMA,
  TRECWEB_DOC_SCHEMA,
  trecTableKind,
} from "@convkit/formats";
import { InputError, openInput, peek } from "@convkit/io";
import { isParquetHead, openParquet, type TableSchema, typeText } from "@convkit/parquet";

/** Every table convkit writes (the README's "Parquet tables"). */
const TABLES: readonly TableSchema[] = [
  SYNTHETIC_RECORD_SCHEMA,
  RUN_ENTRY_SCHEMA,
  QRELS_ENTRY_SCHEMA,
  RANX_RUN_SCHEMA,
  RANX_QRELS_SCHEMA,
  CLARIQ_ROW_SCHEMA,
  CLARIQ_TEST_TOPIC_SCHEMA,
  QUESTION_BANK_SCHEMA,
  HUMAN_MULTI_TURN_SCHEMA,
  CLARIFICATION_NEED_SCHEMA,
  MULTI_TURN_RUN_SCHEMA,
  EVAL_ENTRY_SCHEMA,
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  QULAC_ROW_SCHEMA,
  QULAC_HIST_RECORD_SCHEMA,
  IKAT_TURN_SCHEMA,
  IKAT_RESPONSE_SCHEMA,
  IKAT25_RESPONSE_SCHEMA,
  PASSAGE_SCHEMA,
  PASSAGE_WITH_OFFSETS_SCHEMA,
  PASSAGE_HASH_SCHEMA,
  TRECWEB_DOC_SCHEMA,
  CLUEWEB22_SCHEMA,
  ARGS_ME_SCHEMA,
  TOUCHE_TOPIC_SCHEMA,
  TREC_EVAL_VALUE_SCHEMA,
  COMPARE_VALUE_SCHEMA,
  COMPARE_PAIR_SCHEMA,
];

function matches(schema: TableSchema, columns: ReadonlyMap<string, string>): boolean {
  return (
    schema.columns.length === columns.size && schema.columns.every((c) => columns.get(c.name) === typeText(c))
  );
}

/**
 * A Parquet file's table: undefined when `path` is not Parquet (or stdin, which the format
 * detection cannot reread); its schema and rows when its columns are a declared table's; an
 * InputError naming its columns otherwise.
 */
export async function readParquetTable(
  path: string,
): Promise<{ schema: TableSchema; batches: AsyncIterable<Record<string, unknown>[]> } | undefined> {
  if (path === "-") return undefined;
  const src = await openInput(path);
  const { head, close } = await peek(src.chunks, 4);
  await close();
  if (!isParquetHead(head)) return undefined;
  const table = await openParquet(path);
  // Runs and qrels (convkit's and ranx's layouts) are read as run/qrels entries, as everywhere.
  if (trecTableKind(table.columns) !== undefined) return undefined;
  const schema = TABLES.find((s) => matches(s, table.columns));
  if (schema === undefined)
    throw new InputError(
      path,
      {},
      `one of the tables convkit writes (README, "Parquet tables")`,
      `columns ${[...table.columns].map(([n, t]) => `${n}: ${t}`).join(", ")}`,
    );
  return { schema, batches: table.batches(schema) };
}
