// What a file encoder does, whichever path encodes it (fast or reference).

/** A row as the writers take it: values keyed by column name. */
export type Row = Readonly<Record<string, unknown>>;

/** How a file's row groups and footer are encoded: the fast encoder, or its reference. */
export interface FileEncoder {
  writeRowGroup(rows: readonly Row[]): Promise<void>;
  finish(): Promise<void>;
}
