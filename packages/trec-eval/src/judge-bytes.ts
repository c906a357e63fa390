// One topic's run lines, held as bytes, judged the way judgeRanking (judged-ranking.ts, the plain
// reference) judges its strings: sorted in trec_eval's order, cut at -M, graded from the qrels.
import { bytesEqual, compareBytes, growBytes, growInt32 } from "./byte-table.js";
import {
  gradeHistogram,
  type JudgedRanking,
  judgeRanking,
  NONPOOL,
  type Scored,
  UNJUDGED,
} from "./judged-ranking.js";
import type { ByteQrels } from "./qrels-bytes.js";

/** A topic's retrieved documents in file order: docno i is bytes [starts[i], starts[i + 1]). */
export class TopicEntries {
  n = 0;
  bytes: Uint8Array = new Uint8Array(1 << 14);
  starts: Int32Array = new Int32Array(1025);
  hashes: Int32Array = new Int32Array(1024);
  scores = new Float64Array(1024);

  constructor(
    public qid: string,
    /** Its topic index in the qrels. */
    public topic: number,
  ) {}

  add(buf: Uint8Array, s: number, e: number, hash: number, score: number): void {
    const n = this.n;
    if (n === this.hashes.length) {
      this.hashes = growInt32(this.hashes, n + 1);
      this.starts = growInt32(this.starts, n + 2);
      const sc = new Float64Array(this.hashes.length);
      sc.set(this.scores);
      this.scores = sc;
    }
    const at = this.starts[n]!;
    if (at + e - s > this.bytes.length) this.bytes = growBytes(this.bytes, at, e - s);
    const bytes = this.bytes;
    for (let i = s; i < e; i++) bytes[at + i - s] = buf[i]!;
    this.starts[n + 1] = at + e - s;
    this.hashes[n] = hash;
    this.scores[n] = score;
    this.n = n + 1;
  }

  /** Empties it for the next topic (its buffers kept). */
  reset(qid: string, topic: number): void {
    this.qid = qid;
    this.topic = topic;
    this.n = 0;
  }

  /** The entries as the plain path holds them. */
  scored(): Scored[] {
    const out: Scored[] = [];
    const b = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length);
    this.scores.subarray(0, this.n).forEach((score, i) => {
      const start = this.starts[i];
      const end = this.starts[i + 1];
      if (start === undefined || end === undefined) throw new RangeError(`entry ${i} of ${this.n}`);
      out.push({ docno: b.toString("utf8", start, end), score });
    });
    return out;
  }
}

/** Judges topics against one qrels; holds the scratch space (one per thread). */
export class ByteJudge {
  private slots = new Int32Array(4096);
  private slotStamp = new Int32Array(4096);
  private stamp = 0;

  constructor(
    private readonly qrels: ByteQrels,
    private readonly level: number,
    private readonly maxDocs: number | undefined,
    private readonly runFile: string | undefined,
  ) {}

  /** The topic's judged ranking; judgeRanking's own (or its error, thrown) when a docno repeats. */
  judge(t: TopicEntries): JudgedRanking {
    if (this.hasDuplicate(t))
      return judgeRanking(t.scored(), this.qrels.topicMap(t.topic), {
        relevanceLevel: this.level,
        maxDocs: this.maxDocs,
        file: this.runFile,
        qid: t.qid,
      });
    const { bytes, starts, hashes } = t;
    const order = rankOrder(t);
    const n = this.maxDocs !== undefined && t.n > this.maxDocs ? this.maxDocs : t.n;
    const q = this.qrels;
    q.activate(t.topic);
    const { mark, gradeAt, stamp } = q;
    const grades = new Int32Array(n);
    let numRelRet = 0;
    for (let r = 0; r < n; r++) {
      const i = order[r];
      if (i === undefined) break;
      const from = starts[i];
      const to = starts[i + 1];
      const hash = hashes[i];
      if (from === undefined || to === undefined || hash === undefined) break;
      const id = q.docnos.find(bytes, from, to, hash);
      if (id < 0 || mark[id] !== stamp) {
        grades[r] = NONPOOL;
        continue;
      }
      const g = gradeAt[id];
      if (g === undefined) break;
      grades[r] = g < 0 ? UNJUDGED : g;
      if (g >= this.level) numRelRet++;
    }
    return { grades, ...gradeHistogram(q.topicGrades(t.topic), this.level), numRelRet };
  }

  /** Whether a docno comes twice (an open-addressing set of entry indices, cleared by a stamp). */
  private hasDuplicate(t: TopicEntries): boolean {
    let size = this.slots.length;
    while (size < 2 * t.n) size *= 2;
    if (size !== this.slots.length) {
      this.slots = new Int32Array(size);
      this.slotStamp = new Int32Array(size);
    }
    const s = ++this.stamp;
    const mask = size - 1;
    const { bytes, starts, hashes } = t;
    for (let i = 0; i < t.n; i++) {
      let k = hashes[i]! & mask;
      for (; this.slotStamp[k] === s; k = (k + 1) & mask) {
        const j = this.slots[k]!;
        if (
          hashes[j] === hashes[i] &&
          bytesEqual(bytes, starts[j]!, starts[j + 1]!, bytes, starts[i]!, starts[i + 1]!)
        )
          return true;
      }
      this.slotStamp[k] = s;
      this.slots[k] = i;
    }
    return false;
  }
}

/** trecOrder on bytes: score descending, then docno descending by strcmp (b before a: negative). */
function compareEntries(t: TopicEntries, a: number, b: number): number {
  const x = t.scores[a]!;
  const y = t.scores[b]!;
  if (x > y) return -1;
  if (x < y) return 1;
  return compareBytes(t.bytes, t.starts[b]!, t.starts[b + 1]!, t.bytes, t.starts[a]!, t.starts[a + 1]!);
}

/**
 * Entry indices in trec_eval's order. With no docno twice and no NaN score the comparator is a
 * strict total order, so any correct sort gives the one permutation the plain path's Array sort
 * gives: a run already in score order (as runs are written) only has its ties put in docno order.
 * Otherwise (a NaN makes the comparator no order at all) the plain path's sort itself, from the
 * same file order, with the same comparisons: the same permutation.
 */
function rankOrder(t: TopicEntries): ArrayLike<number> {
  const { scores, n } = t;
  let ranked = true;
  for (let i = 0; i < n; i++) {
    const x = scores[i]!;
    if (Number.isNaN(x) || (i > 0 && scores[i - 1]! < x)) {
      ranked = false;
      break;
    }
  }
  if (!ranked) {
    const order: number[] = new Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    return order.sort((a, b) => compareEntries(t, a, b));
  }
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let g = 0; g < n; ) {
    let e = g + 1;
    while (e < n && scores[e] === scores[g]) e++;
    if (e - g > 1) sortTies(t, order, g, e);
    g = e;
  }
  return order;
}

/** Sorts order[g, e) (equal scores) by docno descending: insertion for the usual few, else Array sort. */
function sortTies(t: TopicEntries, order: Int32Array, g: number, e: number): void {
  if (e - g > 24) {
    const part = Array.from(order.subarray(g, e)).sort((a, b) => compareEntries(t, a, b));
    order.set(part, g);
    return;
  }
  for (let i = g + 1; i < e; i++) {
    const v = order[i]!;
    let j = i - 1;
    while (j >= g && compareEntries(t, order[j]!, v) > 0) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = v;
  }
}
