// A SQLite database of iKAT passage ids (from a hash TSV), built in streaming batches, looked up in batches.
// libsql (SQLite's fork, better-sqlite3's API) rather than better-sqlite3: its binaries come inside
// registry packages and use Node-API, so one install serves every Node version with no compiler.
// The file is plain SQLite: `sqlite3 passages.db 'select count(*) from passages'` reads it.
// libsql costs more per call into SQLite than better-sqlite3 did, so both sides make few calls: rows
// go in ROWS_PER_INSERT to a statement, and a turn's ids are looked up by one statement.
import { existsSync } from "node:fs";
import { readPassageHashes } from "@convkit/formats";
import { InputError } from "@convkit/io";
import Database from "libsql";

/** Rows per transaction while building: big enough to amortize the commit, small enough to stay flat. */
const BATCH = 100_000;
/** Rows per multi-row INSERT (3 parameters each): per-row statements made libsql's build 2x slower. */
const ROWS_PER_INSERT = 250;
/**
 * Bytes of the database file read through a memory map when looking up (SQLite's own default cap):
 * a lookup then costs no read() call per page; about 3x less CPU than through SQLite's page cache.
 */
const MMAP_BYTES = 0x7fff0000;

type Row = { doc_id: string; passage_no: number; md5: string };

const insertSql = (rows: number) =>
  `INSERT OR REPLACE INTO passages (doc_id, k, md5) VALUES ${Array(rows).fill("(?, ?, ?)").join(", ")}`;

/**
 * Builds (or extends) the passage-id database from a hash TSV (`docid<TAB>k<TAB>md5`), one
 * transaction per batch of rows; returns the rows added. The table is `passages(doc_id, k, md5)`
 * keyed by (doc_id, k), without a rowid; journaling off and a large cache while building.
 */
export async function buildPassageDb(
  hashes: string,
  dbPath: string,
  onRows?: (rows: number) => void,
): Promise<number> {
  const db = new Database(dbPath);
  try {
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.pragma("cache_size = -262144");
    db.exec(
      "CREATE TABLE IF NOT EXISTS passages (doc_id TEXT NOT NULL, k INTEGER NOT NULL, md5 TEXT NOT NULL, PRIMARY KEY (doc_id, k)) WITHOUT ROWID",
    );
    const insert = db.prepare(insertSql(ROWS_PER_INSERT));
    const params: (string | number)[] = new Array(3 * ROWS_PER_INSERT);
    const insertMany = db.transaction((rows: readonly Row[]) => {
      let i = 0;
      for (; i + ROWS_PER_INSERT <= rows.length; i += ROWS_PER_INSERT) {
        for (let j = 0; j < ROWS_PER_INSERT; j++) {
          const r = rows[i + j]!;
          params[3 * j] = r.doc_id;
          params[3 * j + 1] = r.passage_no;
          params[3 * j + 2] = r.md5;
        }
        insert.run(params);
      }
      if (i < rows.length) {
        const rest = rows.slice(i);
        db.prepare(insertSql(rest.length)).run(rest.flatMap((r) => [r.doc_id, r.passage_no, r.md5]));
      }
    });
    let n = 0;
    let pending: Row[] = [];
    for await (const b of readPassageHashes(hashes)) {
      for (const r of b) pending.push(r);
      if (pending.length >= BATCH) {
        insertMany(pending);
        n += pending.length;
        pending = [];
        onRows?.(n);
      }
    }
    if (pending.length) {
      insertMany(pending);
      n += pending.length;
      onRows?.(n);
    }
    return n;
  } finally {
    db.close();
  }
}

/**
 * Looks passage ids (`docid:k`) up in a built database, one statement per call: the ids go in as one
 * JSON array of [doc_id, k] pairs and the statement returns the positions of those not found.
 */
export class PassageDb {
  private readonly db: Database.Database;
  private readonly absent: Database.Statement;

  constructor(dbPath: string) {
    const fail = (found: string) =>
      new InputError(dbPath, {}, "a passage-id database (convkit-ikat build-db)", found);
    // libsql creates a missing file and takes no read-only flag: check first, then refuse writes.
    if (!existsSync(dbPath)) throw fail("no such file");
    let db: Database.Database | undefined;
    try {
      db = new Database(dbPath);
      db.pragma("query_only = ON");
      db.pragma(`mmap_size = ${MMAP_BYTES}`);
      this.absent = db
        .prepare(
          "SELECT j.key FROM json_each(?) AS j WHERE NOT EXISTS (SELECT 1 FROM passages WHERE doc_id = j.value ->> 0 AND k = j.value ->> 1)",
        )
        .pluck();
      // A file that is not a database fails here at the latest (reading the schema).
      this.absent.all("[]");
      this.db = db;
    } catch (e) {
      db?.close();
      throw fail(e instanceof Error ? e.message : String(e));
    }
  }

  /** The ids of `ids` that are not in the collection, in order (a malformed id counts as missing). */
  missing(ids: readonly string[]): string[] {
    const isMissing = new Uint8Array(ids.length);
    const pairs: [string, number][] = [];
    const at: number[] = [];
    for (const [i, id] of ids.entries()) {
      const c = id.lastIndexOf(":");
      const k = Number(id.slice(c + 1));
      if (c < 0 || !Number.isInteger(k)) isMissing[i] = 1;
      else {
        pairs.push([id.slice(0, c), k]);
        at.push(i);
      }
    }
    if (pairs.length > 0)
      for (const j of this.absent.all(JSON.stringify(pairs)) as number[]) isMissing[at[j]!] = 1;
    return ids.filter((_, i) => isMissing[i] === 1);
  }

  close(): void {
    this.db.close();
  }
}
