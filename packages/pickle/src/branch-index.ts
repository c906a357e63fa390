// Random access into big pickled dict trees: byte offsets of the dicts above the leaves, and one decoded alone.
import { type ByteSource, InputError } from "@convkit/io";
import { DictTreeScanner } from "./dict-tree.js";
import { CUT, isBinInt, isMemoGet, isMemoPut, isStr, Op, readOp } from "./opcode-reader.js";
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

/**
 * Reads one branch dict; positions are reported from `at` (the branch's stream offset). Opcodes
 * are decoded by readOp; the memo is the index's (`memo`, read only) under the branch's own
 * strings (`local`), whose entries a lookahead undoes through a journal instead of copying them.
 */
class BranchReader {
  private p = 0;
  private readonly local = new Map<number, string>();
  /** Memo indexes `local` set, in order (a lookahead forgets those set after its start). */
  private readonly journal: number[] = [];
  private readonly dv: DataView;
  private readonly buf: Buffer;
  /** The opcode at p, decoded by {@link peek}. */
  private readonly op = new Op();

  constructor(
    bytes: Uint8Array,
    private readonly memo: ReadonlyMap<number, string>,
    private memoLen: number,
    private readonly name: string,
    private readonly at: number,
  ) {
    this.buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  fail(expected: string): never {
    const c =
      this.p < this.buf.length
        ? `opcode 0x${this.buf.readUInt8(this.p).toString(16)}`
        : "the end of the bytes";
    throw new InputError(this.name, { offset: this.at + this.p }, expected, c);
  }

  /**
   * Decodes the next opcode into `op` (not consumed: {@link take} does that), after any protocol-4
   * FRAME headers (which may sit between any two opcodes); -1 at the end of the bytes.
   */
  peek(): number {
    for (;;) {
      if (this.p >= this.buf.length) return -1;
      if (readOp(this.buf, this.dv, this.p, this.buf.length, this.memoLen, this.op) === CUT)
        this.fail("a whole opcode");
      if (this.op.code !== op.FRAME) return this.op.code;
      this.p = this.op.next;
    }
  }

  /** The opcode {@link peek} decoded, consumed. */
  take(): Op {
    this.p = this.op.next;
    return this.op;
  }

  /** The next opcode, which must be there. */
  next(what: string): number {
    const c = this.peek();
    if (c < 0) this.fail(what);
    return c;
  }

  /** An optional memo put after a value: records strings for the references that follow. */
  memoPut(value: string | undefined): void {
    if (!isMemoPut(this.peek())) return;
    const idx = this.take().arg;
    if (value !== undefined) {
      this.local.set(idx, value);
      this.journal.push(idx);
    }
    if (idx >= this.memoLen) this.memoLen = idx + 1;
  }

  /** A str (new, with its memo put, or a memo reference), or undefined when the opcode is another. */
  str(): string | undefined {
    const c = this.next("more opcodes of the dict");
    if (isMemoGet(c)) {
      const idx = this.op.arg;
      const s = this.local.get(idx) ?? this.memo.get(idx);
      if (s === undefined) this.fail(`a memo reference to a string (memo index ${idx})`);
      this.take();
      return s;
    }
    if (!isStr(c)) return undefined;
    const o = this.take();
    const s = this.buf.toString("utf8", o.data, o.data + o.arg);
    this.memoPut(s);
    return s;
  }

  /** A branch key: a str or an int. */
  key(): PyValue {
    const s = this.str();
    if (s !== undefined) return s;
    if (!isBinInt(this.op.code)) return this.fail("a str or int key");
    return this.take().arg;
  }

  float(): number {
    if (this.next("a float (BINFLOAT)") !== op.BINFLOAT) this.fail("a float (BINFLOAT)");
    return this.take().float;
  }

  /** A leaf: EMPTY_DICT [memo] then its items (name → float), in CPython's batches. */
  leaf(): Map<string, number> {
    if (this.next("a dict of floats (EMPTY_DICT)") !== op.EMPTY_DICT)
      this.fail("a dict of floats (EMPTY_DICT)");
    this.take();
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
    const journaled = this.journal.length;
    try {
      return probe();
    } catch {
      return false;
    } finally {
      this.p = save;
      this.memoLen = len;
      // CPython never stores twice at one index, so forgetting an entry restores what was there.
      for (let k = this.journal.length; k > journaled; k--) {
        const key = this.journal.pop();
        if (key !== undefined) this.local.delete(key);
      }
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
      const c = this.peek();
      if (c === op.MARK) {
        this.take();
        let n = 0;
        while (this.next("SETITEMS") !== op.SETITEMS) {
          item();
          n++;
        }
        this.take();
        if (n === 1000) continue;
        if (this.peek() === op.MARK) continue;
        return;
      }
      if (c >= 0 && single()) {
        item();
        if (this.next("SETITEM after a dict's single item") !== op.SETITEM)
          this.fail("SETITEM after a dict's single item");
        this.take();
      }
      return;
    }
  }

  /** The branch: EMPTY_DICT [memo] then key → leaf items. */
  branch(): Map<PyValue, Map<string, number>> {
    if (this.next("a branch dict (EMPTY_DICT)") !== op.EMPTY_DICT) this.fail("a branch dict (EMPTY_DICT)");
    this.take();
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
