// Reading a Parquet table row group by row group, checked column by column against a declared schema.
import {
  InputError,
  inputLimits,
  inputTooLarge,
  isParquetHead,
  messageOf,
  openInput,
  readAll,
} from "@convkit/io";
import {
  type AsyncBuffer,
  type ColumnData,
  type FileMetaData,
  parquetMetadataAsync,
  parquetRead,
  parquetSchema,
  type SchemaTree,
} from "hyparquet";
import { asyncBufferFromFile } from "hyparquet/src/node.js";
import { boundedCompressors, PageTooLarge } from "./bounded.js";
import { type ColumnSpec, type ScalarType, type TableSchema, typeText } from "./schema.js";

export { isParquetHead };

type Row = Record<string, unknown>;

/** A Parquet file opened: its footer read, its columns with their types (`typeText` form). */
export interface ParquetTable {
  readonly name: string;
  readonly rows: number;
  /** Top-level columns and their types, as convkit names them (`int64`, `list<struct<…>>`; others as the file's). */
  readonly columns: ReadonlyMap<string, string>;
  /** The rows, one batch per row group, with the schema's columns checked and converted. */
  batches(schema: TableSchema): AsyncIterable<Row[]>;
}

/** The type of a file's column in {@link typeText}'s words; integers and floats of any width as int64/double. */
function fileType(node: SchemaTree): string {
  const e = node.element;
  if (node.children.length === 0) {
    switch (e.type) {
      case "BYTE_ARRAY":
        return e.converted_type === "UTF8" || e.logical_type?.type === "STRING" ? "string" : "binary";
      case "INT32":
      case "INT64":
        return e.converted_type === undefined || /^U?INT_/.test(e.converted_type)
          ? "int64"
          : String(e.converted_type);
      case "FLOAT":
      case "DOUBLE":
        return "double";
      case "BOOLEAN":
        return "boolean";
      default:
        return String(e.type);
    }
  }
  if (e.converted_type === "LIST" || e.logical_type?.type === "LIST") {
    const repeated = node.children[0];
    if (node.children.length !== 1 || repeated === undefined) return "group";
    // The standard three-level list, or the legacy two-level one (a repeated leaf or struct).
    const [inner] = repeated.children;
    const element =
      repeated.children.length === 1 && repeated.element.name === "list" && inner ? inner : repeated;
    return `list<${fileType(element)}>`;
  }
  return `struct<${node.children.map((c) => `${c.element.name}: ${fileType(c)}`).join(", ")}>`;
}

/** The type text a file's column must have for a declared column (ints read where doubles are declared). */
function accepts(declared: ColumnSpec, found: string): boolean {
  const want = typeText(declared);
  return found === want || (want === "double" && found === "int64");
}

async function bufferOf(path: string, read?: Uint8Array): Promise<AsyncBuffer> {
  if (path !== "-" && read === undefined) return asyncBufferFromFile(path);
  const bytes = read ?? (await readAll(await openInput(path)));
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return { byteLength: ab.byteLength, slice: (start, end) => ab.slice(start, end) };
}

function notParquet(name: string, e: unknown): InputError {
  if (e instanceof PageTooLarge) {
    return new InputError(name, {}, e.expected, e.found);
  }
  // hyparquet's own words name what broke inside the file; said as a damaged file, not a bug here.
  return new InputError(
    name,
    {},
    "a Parquet file with an intact footer, schema and pages",
    `a file that cannot be read as one (${messageOf(e).replace(/^parquet /, "")})`,
  );
}

/**
 * Opens a Parquet file (`-`: stdin, read whole within `--max-input-bytes`) and reads its footer;
 * `bytes`: the file already read (stdin, peeked at), `path` then only names it.
 */
export async function openParquet(path: string, bytes?: Uint8Array): Promise<ParquetTable> {
  const name = path === "-" ? "<stdin>" : path;
  const file = await bufferOf(path, bytes);
  let meta: FileMetaData;
  let root: SchemaTree;
  try {
    meta = await parquetMetadataAsync(file);
    root = parquetSchema(meta);
  } catch (e) {
    throw notParquet(name, e);
  }
  const columns = new Map<string, string>();
  for (const c of root.children) columns.set(c.element.name, fileType(c));
  const rows = Number(meta.num_rows);
  return {
    name,
    rows,
    columns,
    batches: (schema) => readBatches(name, file, meta, columns, schema),
  };
}

async function* readBatches(
  name: string,
  file: AsyncBuffer,
  meta: FileMetaData,
  columns: ReadonlyMap<string, string>,
  schema: TableSchema,
): AsyncIterable<Row[]> {
  const wanted: ColumnSpec[] = [];
  for (const c of schema.columns) {
    const found = columns.get(c.name);
    if (found === undefined) {
      if (c.type !== "list" && c.nullable) continue;
      throw new InputError(
        name,
        {},
        `a column ${c.name} (${typeText(c)}) in ${schema.what}s`,
        `columns ${[...columns.keys()].join(", ") || "none"}`,
      );
    }
    if (!accepts(c, found)) throw new InputError(name, {}, `column ${c.name} of type ${typeText(c)}`, found);
    wanted.push(c);
  }
  const names = wanted.map((c) => c.name);
  let rowStart = 0;
  for (const group of meta.row_groups) {
    const n = Number(group.num_rows);
    // A footer that claims more than the input limit for one row group is refused before any page
    // is inflated (a bomb's pages would be allocated at their claimed size).
    let claimed = 0;
    // Rows become objects: a row group holds at most one per 8 bytes of the input limit, and every
    // column chunk has a value (or a null's level) for each of its rows.
    const maxRows = Math.floor(inputLimits().wholeBytes / 8);
    if (n > maxRows)
      throw new InputError(
        name,
        {},
        `row groups of at most ${maxRows} rows (raise with --max-input-bytes)`,
        `one claiming ${n}`,
      );
    for (const chunk of group.columns) {
      const m = chunk.meta_data;
      if (m === undefined) continue;
      if (Number(m.num_values) < n)
        throw new InputError(
          name,
          {},
          `a column chunk with a value for each of its row group's ${n} rows`,
          `${m.num_values} values in column ${m.path_in_schema.join(".")}`,
        );
      claimed += Number(m.total_uncompressed_size);
      // A chunk starts at its dictionary page where it has one (before its data pages).
      if (
        Number(m.dictionary_page_offset ?? m.data_page_offset) + Number(m.total_compressed_size) >
        file.byteLength
      )
        throw new InputError(
          name,
          {},
          "a Parquet file whose column chunks lie inside it",
          `a chunk ending past byte ${file.byteLength}`,
        );
    }
    if (claimed > inputLimits().wholeBytes) throw inputTooLarge(name, claimed);
    let chunks: ColumnData[][];
    try {
      chunks = await groupChunks(file, meta, names, rowStart, rowStart + n, boundedCompressors(claimed));
    } catch (e) {
      throw notParquet(name, e);
    }
    // Rows straight from the columns' pages (hyparquet's objects per row, then ours, were twice
    // the garbage: on a 1M-line run the collector took half the time).
    const at = chunks.map(() => 0);
    const values: unknown[] = new Array(wanted.length);
    const rows: Row[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const r = rowStart + i;
      for (let j = 0; j < wanted.length; j++) {
        const cs = chunks[j]!;
        let k = at[j]!;
        while (k < cs.length && cs[k]!.rowEnd <= r) k++;
        at[j] = k;
        const c = cs[k];
        values[j] = c !== undefined && r >= c.rowStart ? c.columnData[r - c.rowStart] : undefined;
      }
      rows[i] = checkRow(name, schema, wanted, values, r + 1);
    }
    rowStart += n;
    if (n > 0) yield rows;
  }
}

/** One row group's columns (`names`), each as its pages' values (hyparquet's chunks, in row order). */
async function groupChunks(
  file: AsyncBuffer,
  metadata: FileMetaData,
  names: string[],
  rowStart: number,
  rowEnd: number,
  compressors: ReturnType<typeof boundedCompressors>,
): Promise<ColumnData[][]> {
  const byName = new Map(names.map((c) => [c, [] as ColumnData[]]));
  await parquetRead({
    file,
    metadata,
    columns: names,
    rowStart,
    rowEnd,
    compressors,
    onChunk: (c) => byName.get(c.columnName)?.push(c),
  });
  return names.map((c) => byName.get(c)!.sort((a, b) => a.rowStart - b.rowStart));
}

function scalar(
  name: string,
  row: number,
  column: string,
  type: ScalarType,
  nullable: boolean,
  v: unknown,
): unknown {
  if (v === null || v === undefined) {
    if (nullable) return null;
    throw new InputError(name, { row }, `a ${type} in column ${column}`, "null");
  }
  if (typeof v === "bigint") {
    const n = Number(v);
    if (!Number.isSafeInteger(n) && type === "int64")
      throw new InputError(name, { row }, `an integer within ±2^53 in column ${column}`, String(v));
    return n;
  }
  return v;
}

/** A row's values (`raw[j]`: column j's) checked and converted, as an object keyed by column name. */
function checkRow(
  name: string,
  schema: TableSchema,
  columns: readonly ColumnSpec[],
  raw: readonly unknown[],
  row: number,
): Row {
  const out: Row = {};
  for (let j = 0; j < columns.length; j++) {
    const c = columns[j]!;
    const v = raw[j];
    if (c.type !== "list") out[c.name] = scalar(name, row, c.name, c.type, c.nullable === true, v);
    else if (!Array.isArray(v))
      throw new InputError(name, { row }, `a list in column ${c.name} of ${schema.what}s`, String(v));
    else if ("element" in c) out[c.name] = v.map((x) => scalar(name, row, c.name, c.element, false, x));
    else
      out[c.name] = v.map((x: Row | null) => {
        if (x === null) throw new InputError(name, { row }, `a struct in column ${c.name}`, "null");
        const s: Row = {};
        for (const f of c.fields)
          s[f.name] = scalar(name, row, `${c.name}.${f.name}`, f.type, f.nullable === true, x[f.name]);
        return s;
      });
  }
  return out;
}
