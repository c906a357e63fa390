// What a file encoder does, whichever path encodes it (fast or reference).

/** A row as the writers take it: values keyed by column name. */
export type Row = Readonly<Record<string, unknown>>;

/**
 * A row group (or a batch of rows) as columns: each column's values by column name, all of one
 * length; a list column holds each row's array.
 */
export type Columns = Record<string, unknown[]>;

/** A column's values by name: one of the schema's missing from a batch is a bug (writeColumns checks each batch). */
export function columnOf(columns: Readonly<Columns>, name: string): unknown[] {
  const values = columns[name];
  if (values === undefined) throw new Error(`no column ${name} in the batch`);
  return values;
}

/** How a file's row groups and footer are encoded: the fast encoder, or its reference. */
export interface FileEncoder {
  /** Rows `from` to `to` of a batch, into the pending row group. */
  append(batch: Readonly<Columns>, from: number, to: number): void;
  /** Writes the pending row group (`rows` rows). */
  writeRowGroup(rows: number): Promise<void>;
  finish(): Promise<void>;
}

/** A batch's rows `from` to `to` as columns (the batch itself when that is all of it). */
export function sliceOf(
  batch: Readonly<Columns>,
  names: readonly string[],
  from: number,
  to: number,
): Columns {
  const out: Columns = {};
  for (const name of names) {
    const values = columnOf(batch, name);
    out[name] = from === 0 && to === values.length ? values : values.slice(from, to);
  }
  return out;
}
