// A SQLite database of iKAT passage ids (from a hash TSV), built in streaming batches, looked up in batches.
// libsql (SQLite's fork, better-sqlite3's API) rather than better-sqlite3: its binaries come inside
// registry packages and use Node-API, so one install serves every Node version with no compiler.
// The file is plain SQLite: `sqlite3 passages.db 'select count(*) from passages'` reads it.
import { existsSync } from "node:fs";
import { readPassageHashes } from "@convkit/formats";
import { InputError } from "@convkit/io";
import Database from "libsql";

/** Rows per transaction while building: big enough to amortize the commit, small enough to stay flat. */
const BATCH = 100_000;

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
    const insert = db.prepare("INSERT OR REPLACE INTO passages (doc_id, k, md5) VALUES (?, ?, ?)");
    const insertMany = db.transaction((rows: { doc_id: string; passage_no: number; md5: string }[]) => {
      for (const r of rows) insert.run(r.doc_id, r.passage_no, r.md5);
    });
    let n = 0;
    let pending: { doc_id: string; passage_no: number; md5: string }[] = [];
    for await (const b of readPassageHashes(hashes)) {
      pending.push(...b);
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

/** Looks passage ids (`docid:k`) up in a built database, in one read transaction; returns the missing ones. */
export class PassageDb {
  private readonly db: Database.Database;
  private readonly get: Database.Statement;

  constructor(dbPath: string) {
    // libsql creates a missing file and takes no read-only flag: check first, then refuse writes.
    if (!existsSync(dbPath))
      throw new InputError(dbPath, {}, "a passage-id database (convkit-ikat build-db)", "no such file");
    this.db = new Database(dbPath);
    try {
      this.db.pragma("query_only = ON");
      this.get = this.db.prepare("SELECT 1 FROM passages WHERE doc_id = ? AND k = ?");
    } catch (e) {
      this.db.close();
      throw new InputError(
        dbPath,
        {},
        "a passage-id database (convkit-ikat build-db)",
        e instanceof Error ? e.message : String(e),
      );
    }
  }

  /** The ids of `ids` that are not in the collection (a malformed id counts as missing). */
  missing(ids: readonly string[]): string[] {
    const check = this.db.transaction((list: readonly string[]) => {
      const out: string[] = [];
      for (const id of list) {
        const c = id.lastIndexOf(":");
        const k = Number(id.slice(c + 1));
        if (c < 0 || !Number.isInteger(k) || this.get.get(id.slice(0, c), k) === undefined) out.push(id);
      }
      return out;
    });
    return check(ids);
  }

  close(): void {
    this.db.close();
  }
}
