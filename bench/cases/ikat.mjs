// Bench case: the passage-id database built from a generated hash TSV (rows/s), then a
// 1,000-passages-per-turn run over all 2024 turns validated with the database check. With a fifth
// argument, a folder where better-sqlite3 is installed: the store it replaced (the code as it was
// with better-sqlite3: a statement per row, a lookup per id), on the same rows, in its own file.
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { readIkatTopics, readPassageHashes } from "@convkit/formats";
import { buildPassageDb, PassageDb, validateRun } from "@convkit/ikat";
import { report } from "./report.mjs";

const [work, topicsFile, mrows, what, bsqDir] = process.argv.slice(2);
mkdirSync(work, { recursive: true });
const rows = Number(mrows) * 1e6;
const tsv = join(work, `hashes-${mrows}m.tsv`);
const id = (i) =>
  `clueweb22-en${String(Math.floor(i / 1e6) % 10000).padStart(4, "0")}-${String(Math.floor(i / 1e4) % 100).padStart(2, "0")}-${String(Math.floor(i / 10) % 1000).padStart(5, "0")}`;
if (!existsSync(tsv)) {
  const parts = [];
  let chunk = "";
  for (let i = 0; i < rows; i++) {
    chunk += `${id(i)}\t${i % 10}\t${((i * 2654435761) >>> 0).toString(16).padStart(8, "0").repeat(4)}\n`;
    if (chunk.length > 1 << 22) {
      parts.push(chunk);
      chunk = "";
    }
  }
  parts.push(chunk);
  writeFileSync(tsv, parts.join(""));
}
const db = join(work, `passages-${mrows}m${bsqDir ? "-better-sqlite3" : ""}.sqlite`);
const store = bsqDir ? betterSqlite3Store(createRequire(join(bsqDir, "x.js"))("better-sqlite3")) : undefined;
const build = store?.build ?? buildPassageDb;
const Lookup = store?.PassageDb ?? PassageDb;
if (what === "build") {
  rmSync(db, { force: true });
  const t0 = performance.now();
  const n = await build(tsv, db);
  report({ records: n, seconds: (performance.now() - t0) / 1000, bytes: statSync(db).size });
} else {
  if (!existsSync(db)) await build(tsv, db);
  const topics = await readIkatTopics(topicsFile);
  const turns = topics.flatMap((t) => t.turns.map((u) => `${t.number}_${u.turn_id}`));
  let k = 0;
  const run = {
    run_name: "bench",
    run_type: "automatic",
    eval_response: true,
    turns: turns.map((turn_id) => ({
      turn_id,
      responses: [
        {
          rank: 1,
          text: "a response",
          ptkb_provenance: [],
          passage_provenance: Array.from({ length: 1000 }, (_, i) => {
            const j = (k++ * 7919) % rows;
            return { id: `${id(j)}:${j % 10}`, score: 1000 - i, used: i < 5 };
          }),
        },
      ],
    })),
  };
  const t0 = performance.now();
  const findings = validateRun(run, topics, 2024);
  const pdb = new Lookup(db);
  let missing = 0;
  for (const t of run.turns)
    missing += pdb.missing(t.responses[0].passage_provenance.map((p) => p.id)).length;
  pdb.close();
  if (findings.some((f) => f.level === "error") || missing) throw new Error("the bench run should be valid");
  report({ records: turns.length * 1000, seconds: (performance.now() - t0) / 1000 });
}

/** packages/ikat/src/passage-db.ts as it was on better-sqlite3 12 (before libsql). */
function betterSqlite3Store(Database) {
  const BATCH = 100_000;
  return {
    async build(hashes, dbPath) {
      const db = new Database(dbPath);
      try {
        db.pragma("journal_mode = OFF");
        db.pragma("synchronous = OFF");
        db.pragma("cache_size = -262144");
        db.exec(
          "CREATE TABLE IF NOT EXISTS passages (doc_id TEXT NOT NULL, k INTEGER NOT NULL, md5 TEXT NOT NULL, PRIMARY KEY (doc_id, k)) WITHOUT ROWID",
        );
        const insert = db.prepare("INSERT OR REPLACE INTO passages (doc_id, k, md5) VALUES (?, ?, ?)");
        const insertMany = db.transaction((rows) => {
          for (const r of rows) insert.run(r.doc_id, r.passage_no, r.md5);
        });
        let n = 0;
        let pending = [];
        for await (const b of readPassageHashes(hashes)) {
          pending.push(...b);
          if (pending.length >= BATCH) {
            insertMany(pending);
            n += pending.length;
            pending = [];
          }
        }
        if (pending.length) {
          insertMany(pending);
          n += pending.length;
        }
        return n;
      } finally {
        db.close();
      }
    },
    PassageDb: class {
      constructor(dbPath) {
        this.db = new Database(dbPath, { readonly: true, fileMustExist: true });
        this.get = this.db.prepare("SELECT 1 FROM passages WHERE doc_id = ? AND k = ?");
      }
      missing(ids) {
        const check = this.db.transaction((list) => {
          const out = [];
          for (const id of list) {
            const c = id.lastIndexOf(":");
            const k = Number(id.slice(c + 1));
            if (c < 0 || !Number.isInteger(k) || this.get.get(id.slice(0, c), k) === undefined) out.push(id);
          }
          return out;
        });
        return check(ids);
      }
      close() {
        this.db.close();
      }
    },
  };
}
