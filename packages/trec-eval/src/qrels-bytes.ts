// A qrels file read as bytes: each docno interned once (byte-table.ts), each topic's judgments as
// docno ids and grades. The plain reference is loadQrels (load.ts); on anything it would refuse
// (or that this reader leaves to it) the file is read again by it, so errors are its errors.
import { isParquetHead, qrelsEntryOf } from "@convkit/formats";
import { type ByteSource, openInput, readAll } from "@convkit/io";
import { ByteTable, bytesEqual, growInt32, hashBytes } from "./byte-table.js";
import { Declined, isInteger, scanLine, smallInteger, textFields } from "./line-fields.js";
import { loadQrels } from "./load.js";

/** The judgments of a qrels file, topic by topic, docnos as ids of one {@link ByteTable}. */
export class ByteQrels {
  /** Judgments with a grade > 0 (trec_eval's summary num_rel under -c). */
  readonly positive: number;
  /** Lookup marks: docno id → the activation it was judged in (see {@link activate}): judged in the active topic iff mark[id] === stamp, with grade gradeAt[id]. */
  readonly mark: Int32Array;
  readonly gradeAt: Float64Array;
  stamp = 0;
  /** Read by the plain path (loadQrels), the bytes being odd or wrong. */
  fromPlain = false;

  constructor(
    readonly docnos: ByteTable,
    /** Topic index → qid, in first appearance. */
    readonly qids: string[],
    /** Topic t's judgments are [offsets[t], offsets[t + 1]) of docIds and grades. */
    readonly offsets: Int32Array,
    readonly docIds: Int32Array,
    /** Float64, not Int32: a grade is kept exactly as the plain reader's number (even -0 or 1e10). */
    readonly grades: Float64Array,
  ) {
    let positive = 0;
    for (const g of grades) if (g > 0) positive++;
    this.positive = positive;
    this.mark = new Int32Array(docnos.size);
    this.gradeAt = new Float64Array(docnos.size);
  }

  private indexCache: Map<string, number> | undefined;
  /** Topic index of a qid, or -1. */
  topicOf(qid: string): number {
    this.indexCache ??= new Map(this.qids.map((q, i) => [q, i]));
    return this.indexCache.get(qid) ?? -1;
  }

  /** Topic t's judgments: its docnos' ids and their grades, in file order. */
  private judgments(t: number): { ids: Int32Array; grades: Float64Array } {
    const from = this.offsets[t];
    const to = this.offsets[t + 1];
    if (from === undefined || to === undefined) throw new RangeError(`topic ${t} of ${this.qids.length}`);
    return { ids: this.docIds.subarray(from, to), grades: this.grades.subarray(from, to) };
  }

  /** f(docno id, grade) for each of topic t's judgments. */
  private eachJudgment(t: number, f: (id: number, grade: number) => void): void {
    const { ids, grades } = this.judgments(t);
    grades.forEach((g, j) => {
      const id = ids[j];
      if (id === undefined) throw new RangeError(`judgment ${j} of ${ids.length}`);
      f(id, g);
    });
  }

  /** Makes topic t's judgments the marked ones (a new stamp: nothing is cleared). */
  activate(t: number): void {
    const s = ++this.stamp;
    this.eachJudgment(t, (id, g) => {
      this.mark[id] = s;
      this.gradeAt[id] = g;
    });
  }

  /** Topic t's grades (the histogram's input). */
  topicGrades(t: number): Float64Array {
    return this.judgments(t).grades;
  }

  /** Topic t as the plain path's docno → grade map (for -c's stand-in, fallbacks and the explorer). */
  topicMap(t: number): Map<string, number> {
    const m = new Map<string, number>();
    this.eachJudgment(t, (id, g) => {
      m.set(this.docnos.text(id), g);
    });
    return m;
  }

  /** The whole qrels as loadQrels returns them. */
  toMaps(): Map<string, Map<string, number>> {
    return new Map(this.qids.map((q, t) => [q, this.topicMap(t)]));
  }

  /** From loadQrels' maps (where the byte reader declined). */
  static fromMaps(maps: ReadonlyMap<string, ReadonlyMap<string, number>>): ByteQrels {
    const b = new QrelsBuilder();
    for (const [qid, m] of maps) {
      const t = b.topic(qid);
      for (const [docno, g] of m) {
        const bytes = Buffer.from(docno, "utf8");
        b.add(t, bytes, 0, bytes.length, g);
      }
    }
    return b.build();
  }
}

/** Judgments as they come, topics in any order, then grouped by topic (file order kept within each). */
class QrelsBuilder {
  readonly docnos: ByteTable;
  readonly qids: string[] = [];
  private readonly index = new Map<string, number>();
  private n = 0;
  private topicOfJ: Int32Array = new Int32Array(1024);
  private docOfJ: Int32Array = new Int32Array(1024);
  private gradeOfJ = new Float64Array(1024);

  /** `expectedLines`: an estimate (the docno table is sized for it). */
  constructor(expectedLines = 1024) {
    this.docnos = new ByteTable(expectedLines);
  }

  topic(qid: string): number {
    let t = this.index.get(qid);
    if (t === undefined) {
      t = this.qids.length;
      this.qids.push(qid);
      this.index.set(qid, t);
    }
    return t;
  }

  add(t: number, buf: Uint8Array, s: number, e: number, grade: number): void {
    if (this.n === this.topicOfJ.length) {
      this.topicOfJ = growInt32(this.topicOfJ, this.n + 1);
      this.docOfJ = growInt32(this.docOfJ, this.n + 1);
      const g = new Float64Array(this.topicOfJ.length);
      g.set(this.gradeOfJ);
      this.gradeOfJ = g;
    }
    this.topicOfJ[this.n] = t;
    this.docOfJ[this.n] = this.docnos.intern(buf, s, e, hashBytes(buf, s, e));
    this.gradeOfJ[this.n++] = grade;
  }

  /** Groups by topic (a counting sort); a docno judged twice in a topic is left to the plain reader. */
  build(): ByteQrels {
    const topics = this.qids.length;
    const n = this.n;
    const topicOf = this.topicOfJ.subarray(0, n);
    // offsets[t + 1] counts topic t's judgments, then (summed) ends them.
    const offsets = new Int32Array(topics + 1);
    for (const t of topicOf) {
      const count = offsets[t + 1];
      if (count === undefined) throw new RangeError(`topic ${t} of ${topics}`);
      offsets[t + 1] = count + 1;
    }
    let end = 0;
    offsets.forEach((count, t) => {
      end += count;
      offsets[t] = end;
    });
    const next = offsets.slice(0, topics);
    const docIds = new Int32Array(n);
    const grades = new Float64Array(n);
    topicOf.forEach((t, j) => {
      const k = next[t];
      const doc = this.docOfJ[j];
      const grade = this.gradeOfJ[j];
      if (k === undefined || doc === undefined || grade === undefined)
        throw new RangeError(`judgment ${j} of ${n}`);
      next[t] = k + 1;
      docIds[k] = doc;
      grades[k] = grade;
    });
    // A docno judged twice in a topic: seen[doc] holds the last topic (+ 1) that judged it.
    const seen = new Int32Array(this.docnos.size);
    let t = 0;
    docIds.forEach((doc, k) => {
      while (k >= (offsets[t + 1] ?? n)) t++;
      if (seen[doc] === t + 1) throw new Declined("a docno judged twice in a topic");
      seen[doc] = t + 1;
    });
    return new ByteQrels(this.docnos, this.qids, offsets, docIds, grades);
  }
}

const F = new Int32Array(1 + 2 * 4);
/** F[k]: where the line ends (0), or where field (k - 1) / 2 starts (odd k) or ends (even k). */
function fieldBound(k: number): number {
  const v = F[k];
  if (v === undefined) throw new RangeError(`field bound ${k} of ${F.length}`);
  return v;
}

/** Parses a whole qrels file's bytes (BOM already dropped); Declined where the plain reader must decide. */
function parseQrelsBytes(buf: Buffer, file: string): ByteQrels {
  // About 20 bytes a qrels line ("301 0 clueweb09-en0000-00-00000 1" is 34).
  const b = new QrelsBuilder(Math.min(1 << 21, Math.ceil(buf.length / 20)));
  const len = buf.length;
  let qs = -1;
  let qe = -1;
  let t = -1;
  for (let pos = 0; pos < len; pos = fieldBound(0)) {
    const start = pos;
    const nf = scanLine(buf, pos, len, F, 4);
    if (nf === 0) continue;
    if (nf === -1) {
      const fields = textFields(buf, start, fieldBound(0));
      if (fields.length === 0) continue;
      let e: ReturnType<typeof qrelsEntryOf>;
      try {
        e = qrelsEntryOf(file, { line: 0, fields });
      } catch {
        throw new Declined("a qrels line the plain reader refuses");
      }
      const docno = Buffer.from(e.docno, "utf8");
      b.add(b.topic(e.qid), docno, 0, docno.length, e.rel);
      qs = -1;
      continue;
    }
    if (nf !== 4 || !isInteger(buf, fieldBound(7), fieldBound(8))) throw new Declined("not a qrels line");
    // The qid: the previous line's, mostly (qrels come grouped); a string only when it changes.
    const s = fieldBound(1);
    const e = fieldBound(2);
    if (qs < 0 || !bytesEqual(buf, qs, qe, buf, s, e)) {
      t = b.topic(buf.toString("latin1", s, e));
      qs = s;
      qe = e;
    }
    let g = smallInteger(buf, fieldBound(7), fieldBound(8));
    if (Number.isNaN(g)) g = Number(buf.toString("latin1", fieldBound(7), fieldBound(8)));
    b.add(t, buf, fieldBound(5), fieldBound(6), g);
  }
  return b.build();
}

const UTF8_BOM = (b: Uint8Array) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

/** A qrels file (or `-`; compressed or not) as {@link ByteQrels}; loadQrels decides where the bytes are odd. */
export async function loadByteQrels(path: string): Promise<ByteQrels> {
  const src = await openInput(path);
  const bytes = await readAll(src);
  try {
    // A Parquet table is read by the plain reader (convkit's layout or ranx's, trec-parquet.ts).
    if (isParquetHead(bytes)) throw new Declined("a Parquet table");
    return parseQrelsBytes(UTF8_BOM(bytes) ? bytes.subarray(3) : bytes, src.name);
  } catch (e) {
    if (!(e instanceof Declined)) throw e;
    const q = ByteQrels.fromMaps(await loadQrels(path, bytesSource(src.name, bytes)));
    q.fromPlain = true;
    return q;
  }
}

/** Bytes already read, as a source the plain readers take. */
export function bytesSource(name: string, bytes: Uint8Array): ByteSource {
  return {
    name,
    chunks: (async function* () {
      yield bytes;
    })(),
  };
}
