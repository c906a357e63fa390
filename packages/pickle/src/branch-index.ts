// Random access into big pickled dict trees: byte offsets of the dicts above the leaves, and one decoded alone.
import { type ByteSource, InputError } from "@convkit/io";
import { DictTreeScanner } from "./dict-tree.js";
import * as op from "./opcodes.js";
import type { PyValue } from "./values.js";

/**
 * Where each branch of a pickled dict tree is: a branch is a dict one level above the leaves (an
 * eval dict's context: question → {no_answer, with_answer}). With the memo's strings, one branch
 * can be decoded from its own bytes ({@link readDictBranch}) without the rest of the stream.
 */
export interface DictTreeIndex {
  /** Each branch's key path (e.g. [metric, context]), in stream order. */
  readonly paths: readonly (readonly PyValue[])[];
  /** Stream offset of each branch's EMPTY_DICT opcode. */
  readonly offsets: Float64Array;
  /** The memo's length at each branch's start (MEMOIZE numbers its entries by it). */
  readonly memoLengths: Float64Array;
  /** The memo's strings at the end of the stream (CPython never reuses a memo index). */
  readonly memo: ReadonlyMap<number, string>;
}

const NOTHING: readonly PyValue[] = [];

/**
 * One pass over a dict tree `depth` levels deep (3 for eval dicts), skipping every leaf unread:
 * the branches' key paths and offsets, and the memo's strings. The tree must have the shape
 * {@link DictTreeScanner} takes (CPython's eval dicts do); other shapes throw its UnsupportedShape.
 */
export async function indexDictTree(source: ByteSource, depth: number): Promise<DictTreeIndex> {
  const paths: PyValue[][] = [];
  let offsets = new Float64Array(1 << 12);
  let memoLengths = new Float64Array(1 << 12);
  const scanner: DictTreeScanner = new DictTreeScanner(
    source.name,
    depth,
    () => {},
    (branch) => {
      const n = paths.length;
      if (n === offsets.length) {
        const o = new Float64Array(n * 2);
        o.set(offsets);
        offsets = o;
        const m = new Float64Array(n * 2);
        m.set(memoLengths);
        memoLengths = m;
      }
      paths.push(branch.slice(0, depth - 1));
      offsets[n] = scanner.branchOffset;
      memoLengths[n] = scanner.memoLength;
      return NOTHING;
    },
  );
  for await (const c of source.chunks) scanner.feed(c);
  scanner.finish();
  return {
    paths,
    offsets: offsets.slice(0, paths.length),
    memoLengths: memoLengths.slice(0, paths.length),
    memo: scanner.memoStrings(),
  };
}

/** Reads one branch dict; positions are reported from `at` (the branch's stream offset). */
class BranchReader {
  private p = 0;
  private readonly local = new Map<number, string>();
  private readonly dv: DataView;

  constructor(
    private readonly buf: Uint8Array,
    private readonly memo: ReadonlyMap<number, string>,
    private memoLen: number,
    private readonly name: string,
    private readonly at: number,
  ) {
    this.dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  fail(expected: string): never {
    const c =
      this.p < this.buf.length ? `opcode 0x${this.buf[this.p]!.toString(16)}` : "the end of the bytes";
    throw new InputError(this.name, { offset: this.at + this.p }, expected, c);
  }

  /** The next opcode, after any protocol-4 FRAME headers (which may sit between any two opcodes). */
  peek(): number {
    while (this.buf[this.p] === op.FRAME) {
      if (this.p + 9 > this.buf.length) this.fail("a whole FRAME header");
      this.p += 9;
    }
    if (this.p >= this.buf.length) this.fail("more opcodes of the dict");
    return this.buf[this.p]!;
  }

  need(n: number): void {
    if (this.p + n > this.buf.length) this.fail(`${n} more bytes`);
  }

  /** An optional memo put after a value: records strings for the references that follow. */
  memoPut(value: string | undefined): void {
    const c = this.p < this.buf.length ? this.peek() : -1;
    let idx: number;
    if (c === op.BINPUT) {
      this.need(2);
      idx = this.buf[this.p + 1]!;
      this.p += 2;
    } else if (c === op.LONG_BINPUT) {
      this.need(5);
      idx = this.dv.getUint32(this.p + 1, true);
      this.p += 5;
    } else if (c === op.MEMOIZE) {
      idx = this.memoLen;
      this.p += 1;
    } else return;
    if (value !== undefined) this.local.set(idx, value);
    if (idx >= this.memoLen) this.memoLen = idx + 1;
  }

  /** A memo reference at p, or undefined when the opcode is another. */
  memoGet(): string | undefined {
    const c = this.peek();
    let idx: number;
    if (c === op.BINGET) {
      this.need(2);
      idx = this.buf[this.p + 1]!;
      this.p += 2;
    } else if (c === op.LONG_BINGET) {
      this.need(5);
      idx = this.dv.getUint32(this.p + 1, true);
      this.p += 5;
    } else return undefined;
    const s = this.local.get(idx) ?? this.memo.get(idx);
    if (s === undefined) {
      this.p -= c === op.BINGET ? 2 : 5;
      this.fail(`a memo reference to a string (memo index ${idx})`);
    }
    return s;
  }

  /** A str (new, with its memo put, or a memo reference), or undefined when the opcode is another. */
  str(): string | undefined {
    const got = this.memoGet();
    if (got !== undefined) return got;
    const c = this.peek();
    if (c !== op.SHORT_BINUNICODE && c !== op.BINUNICODE) return undefined;
    const w = c === op.SHORT_BINUNICODE ? 1 : 4;
    this.need(1 + w);
    const len = w === 1 ? this.buf[this.p + 1]! : this.dv.getUint32(this.p + 1, true);
    this.need(1 + w + len);
    const s = Buffer.from(this.buf.buffer, this.buf.byteOffset + this.p + 1 + w, len).toString("utf8");
    this.p += 1 + w + len;
    this.memoPut(s);
    return s;
  }

  /** A branch key: a str or an int. */
  key(): PyValue {
    const s = this.str();
    if (s !== undefined) return s;
    const c = this.peek();
    if (c === op.BININT1) {
      this.need(2);
      this.p += 2;
      return this.buf[this.p - 1]!;
    }
    if (c === op.BININT2) {
      this.need(3);
      this.p += 3;
      return this.dv.getUint16(this.p - 2, true);
    }
    if (c === op.BININT) {
      this.need(5);
      this.p += 5;
      return this.dv.getInt32(this.p - 4, true);
    }
    return this.fail("a str or int key");
  }

  float(): number {
    if (this.peek() !== op.BINFLOAT) this.fail("a float (BINFLOAT)");
    this.need(9);
    this.p += 9;
    return this.dv.getFloat64(this.p - 8);
  }

  /** A leaf: EMPTY_DICT [memo] then its items (name → float), in CPython's batches. */
  leaf(): Map<string, number> {
    if (this.peek() !== op.EMPTY_DICT) this.fail("a dict of floats (EMPTY_DICT)");
    this.p++;
    this.memoPut(undefined);
    const out = new Map<string, number>();
    this.items(
      () => {
        const n = this.str();
        if (n === undefined) this.fail("a str name in a dict of floats");
        out.set(n, this.float());
      },
      () => this.isName(),
    );
    return out;
  }

  /** Whether a name str and a BINFLOAT start at p (a single-item batch of a leaf). */
  private isName(): boolean {
    return this.lookahead(() => this.str() !== undefined && this.peek() === op.BINFLOAT);
  }

  /** Whether `probe` holds at p; nothing is consumed or memoized either way. */
  private lookahead(probe: () => boolean): boolean {
    const save = this.p;
    const len = this.memoLen;
    const local = new Map(this.local);
    try {
      return probe();
    } catch {
      return false;
    } finally {
      this.p = save;
      this.memoLen = len;
      this.local.clear();
      for (const [k, v] of local) this.local.set(k, v);
    }
  }

  /**
   * A dict's items after its EMPTY_DICT as CPython's batch_setitems writes them: batches of up to
   * 1000 as `MARK (k v)* SETITEMS`, a batch of one as `k v SETITEM`. After a full batch of 1000 a
   * single item may follow (`single()` says whether one starts here); otherwise a MARK starts the
   * next batch and anything else belongs to the parent.
   */
  private items(item: () => void, single: () => boolean): void {
    for (;;) {
      const c = this.p < this.buf.length ? this.peek() : -1;
      if (c === op.MARK) {
        this.p++;
        let n = 0;
        while (this.peek() !== op.SETITEMS) {
          item();
          n++;
        }
        this.p++;
        if (n === 1000) continue;
        if (this.p < this.buf.length && this.peek() === op.MARK) continue;
        return;
      }
      if (c >= 0 && single()) {
        item();
        if (this.peek() !== op.SETITEM) this.fail("SETITEM after a dict's single item");
        this.p++;
      }
      return;
    }
  }

  /** The branch: EMPTY_DICT [memo] then key → leaf items. */
  branch(): Map<PyValue, Map<string, number>> {
    if (this.peek() !== op.EMPTY_DICT) this.fail("a branch dict (EMPTY_DICT)");
    this.p++;
    this.memoPut(undefined);
    const out = new Map<PyValue, Map<string, number>>();
    this.items(
      () => {
        const k = this.key();
        out.set(k, this.leaf());
      },
      () => this.isKeyOfLeaf(),
    );
    return out;
  }

  /** Whether `key leaf SETITEM` starts at p (a branch's single-item batch, not the parent's next key). */
  private isKeyOfLeaf(): boolean {
    return this.lookahead(() => {
      this.key();
      this.leaf();
      return this.peek() === op.SETITEM;
    });
  }
}

/**
 * One branch decoded from `bytes`, which start at its EMPTY_DICT (an offset of
 * {@link indexDictTree}); it stops by itself when the dict is complete and ignores what follows.
 * `memo` and `memoLength` come from the index. Keys keep their Python type (str or int); leaves
 * map names to floats. Anything outside that shape is an InputError naming the stream offset.
 */
export function readDictBranch(
  bytes: Uint8Array,
  index: Pick<DictTreeIndex, "memo">,
  memoLength: number,
  name = "<pickle>",
  offset = 0,
): Map<PyValue, Map<string, number>> {
  return new BranchReader(bytes, index.memo, memoLength, name, offset).branch();
}
