// A run read as bytes, topic by topic as its lines come: no string per line (a qid becomes one
// when it changes, the tag once), docnos hashed where they lie. The plain reference is loadRun
// (load.ts). Streaming: a topic is handed on when the next starts, so memory holds one topic,
// and a judged topic met again (an interleaved run) throws Interleaved: the caller reads the run
// again buffered (every topic kept to the end), as trec_eval, which sorts the whole run, would
// see it.
import { type RunEntry, runEntryOf } from "@convkit/formats";
import { hashBytes } from "./byte-table.js";
import { TopicEntries } from "./judge-bytes.js";
import { Declined, isInteger, parseScore, SCORE, scanLine, textFields } from "./line-fields.js";
import type { ByteQrels } from "./qrels-bytes.js";

/** A judged topic met again after others: the run is not grouped by topic. */
export class Interleaved extends Error {}

const F = new Int32Array(1 + 2 * 6);

export class RunScanner {
  /** The first line's tag (trec_eval's runid). */
  tag: string | undefined;
  /** Topics judged (in the qrels) that the run has. */
  readonly seen = new Set<string>();
  private cur: TopicEntries | undefined;
  /** Bytes of the current line group's qid (the last line's), to tell a new topic without a string. */
  private qid = new Uint8Array(64);
  private qidLen = -1;
  private readonly kept = new Map<string, TopicEntries>();
  /** The last topic's entries, reused (streaming). */
  private spare: TopicEntries | undefined;

  constructor(
    private readonly qrels: ByteQrels,
    private readonly file: string,
    /** Keep every topic until {@link end} (a run whose topics are interleaved). */
    private readonly buffered: boolean,
    /** A topic whose lines are all in; in streaming mode its entries are reused after the call. */
    private readonly onTopic: (t: TopicEntries) => void,
  ) {}

  /** Reads the lines of `buf` (whole lines; the file's last may lack its \n). */
  feed(buf: Buffer): void {
    const len = buf.length;
    for (let pos = 0; pos < len; pos = F[0]!) {
      const start = pos;
      const nf = scanLine(buf, pos, len, F, 6);
      if (nf === 0) continue;
      if (nf === -1) {
        this.textLine(textFields(buf, start, F[0]!));
        continue;
      }
      if (nf < 6 || !isInteger(buf, F[7]!, F[8]!)) throw new Declined("not a run line");
      if (!parseScore(buf, F[9]!, F[10]!)) throw new Declined("not a score");
      const score = SCORE[0]!;
      if (this.tag === undefined) this.tag = buf.toString("latin1", F[11]!, F[12]!);
      const qs = F[1]!;
      const qe = F[2]!;
      if (!this.sameQid(buf, qs, qe)) this.startTopic(buf.toString("latin1", qs, qe), buf, qs, qe);
      const cur = this.cur;
      if (cur) cur.add(buf, F[5]!, F[6]!, hashBytes(buf, F[5]!, F[6]!), score);
    }
  }

  /** A line the byte scan left to text: read as the plain reader reads it. */
  private textLine(fields: string[]): void {
    if (fields.length === 0) return;
    let e: ReturnType<typeof runEntryOf>;
    try {
      e = runEntryOf(this.file, { line: 0, fields }, { trecEval: true });
    } catch {
      throw new Declined("a run line the plain reader refuses");
    }
    this.tag ??= e.tag;
    const q = Buffer.from(e.qid, "utf8");
    if (!this.sameQid(q, 0, q.length)) this.startTopic(e.qid, q, 0, q.length);
    const d = Buffer.from(e.docno, "utf8");
    this.cur?.add(d, 0, d.length, hashBytes(d, 0, d.length), e.score);
  }

  /** The qid of the last entry fed by {@link feedEntries} (a scanner is fed entries or bytes, not both). */
  private entryQid: string | undefined;

  /** Scratch for an entry's docno as UTF-8 (a Buffer per entry was a million on a 1M-line run). */
  private scratch = Buffer.alloc(256);

  /** Entries read elsewhere (a Parquet run's row group), as the plain reader's lines would give them. */
  feedEntries(entries: readonly RunEntry[]): void {
    for (const e of entries) {
      this.tag ??= e.tag;
      if (e.qid !== this.entryQid) {
        this.entryQid = e.qid;
        const q = Buffer.from(e.qid, "utf8");
        this.startTopic(e.qid, q, 0, q.length);
      }
      const cur = this.cur;
      if (!cur) continue; // a topic not judged: trec_eval ignores it
      if (3 * e.docno.length > this.scratch.length) this.scratch = Buffer.alloc(3 * e.docno.length);
      const d = this.scratch;
      const n = d.write(e.docno, 0, "utf8");
      cur.add(d, 0, n, hashBytes(d, 0, n), e.score);
    }
  }

  private sameQid(buf: Uint8Array, s: number, e: number): boolean {
    if (e - s !== this.qidLen) return false;
    for (let i = 0; i < this.qidLen; i++) if (this.qid[i] !== buf[s + i]) return false;
    return true;
  }

  private startTopic(qid: string, buf: Uint8Array, s: number, e: number): void {
    if (e - s > this.qid.length) this.qid = new Uint8Array(2 * (e - s));
    this.qid.set(buf.subarray(s, e));
    this.qidLen = e - s;
    const t = this.qrels.topicOf(qid);
    if (!this.buffered) {
      if (this.cur) {
        this.onTopic(this.cur);
        this.spare = this.cur;
        this.cur = undefined;
      }
      if (t < 0) return; // not judged: read (and checked) but not kept, as trec_eval ignores it
      if (this.seen.has(qid)) throw new Interleaved();
      this.seen.add(qid);
      this.cur = this.spare ?? new TopicEntries(qid, t);
      this.cur.reset(qid, t);
      return;
    }
    if (t < 0) {
      this.cur = undefined;
      return;
    }
    this.seen.add(qid);
    let k = this.kept.get(qid);
    if (!k) {
      k = new TopicEntries(qid, t);
      this.kept.set(qid, k);
    }
    this.cur = k;
  }

  /** The end of the run: the last topic (streaming) or every topic (buffered) handed on. */
  end(): void {
    if (!this.buffered) {
      if (this.cur) this.onTopic(this.cur);
    } else for (const t of this.kept.values()) this.onTopic(t);
    this.cur = undefined;
  }
}
