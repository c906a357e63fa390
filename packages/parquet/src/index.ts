// @convkit/parquet: tables as Apache Parquet, written as rows come under declared schemas and read back checked.
export { CODECS, type Codec } from "./codec.js";
export { CREATED_BY } from "./file-encoder.js";
export type { Columns } from "./file-encoding.js";
export { isParquetHead, openParquet, type ParquetTable } from "./reader.js";
export {
  type ColumnSpec,
  type ScalarColumn,
  type ScalarListColumn,
  type ScalarType,
  type StructListColumn,
  type TableSchema,
  typeText,
} from "./schema.js";
export { ParquetTableWriter, type ParquetWriteOptions, writeParquet } from "./writer.js";
