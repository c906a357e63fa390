// convert's Parquet input: a table convkit wrote, known by its columns matching one declared schema
// exactly (names and types), read back as the rows of that schema.
import { TABLE_SCHEMAS, trecTableKind } from "@convkit/formats";
import { InputError, openInput, peek } from "@convkit/io";
import { isParquetHead, openParquet, type TableSchema, typeText } from "@convkit/parquet";

/** Every table convkit writes (the README's "Parquet tables"). */
const TABLES: readonly TableSchema[] = TABLE_SCHEMAS;

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
