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
  writeRowGroup(columns: Columns, rows: number): Promise<void>;
  finish(): Promise<void>;
}
