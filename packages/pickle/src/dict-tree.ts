// A fast, allocation-free scan of pickled dict trees whose leaves map names to floats (eval dicts).
import { type ByteSource, InputError } from "@convkit/io";
import { DictItemsKernel } from "./dict-items.js";
import { ITEM_MAX } from "./dict-items-wasm.js";
import { CUT, isBinInt, isMemoGet, isMemoPut, isStr, Op, readOp, strOf } from "./opcode-reader.js";
import * as op from "./opcodes.js";
import { StringMemo } from "./scan-memo.js";
import { WantedKeys, type WantedLeaves } from "./scan-wanted.js";
import type { PyValue } from "./values.js";

export type { WantedLeaves } from "./scan-wanted.js";

// Kinds of the typed operand stack.
const STR = 1;
const INT = 2;
const FLOAT = 3;
const DICT = 4;

/** Bytes of a new chunk stitched to the cut tail of the previous one (see `feed`). */
const STITCH = 1 << 12;

/** The scan met something outside its fast subset; the caller falls back to the general reader. */
export class UnsupportedShape extends Error {}

type OnLeaf = (path: readonly PyValue[], names: readonly string[], values: Float64Array, n: number) => void;

/**
 * Streams the float leaves of a pickled tree of dicts (str/int keys) as CPython writes eval dicts:
 * `onLeaf(path, names, values, n)` for every dict `depth` levels down, with its key path and its
 * `n` items (`names[i]: values[i]`, floats). Nothing is allocated per item, so tens of MB scan in
 * a fraction of the time building them takes. Opcodes outside that shape throw
 * {@link UnsupportedShape}; use the general unpickler's `leaves` mode then. A dict of one item
 * above the leaves (CPython's SETITEM without MARK), or one ending in a batch of one after full
 * batches of 1000, cannot be told from an empty dict followed by its parent's next key until
 * later: such trees are outside the subset too (eval dicts never have one: every context holds
 * MAX and MIN, and none has 1000 questions).
 *
 * Three ways of reading, all decoding through readOp (opcode-reader.ts): the opcode loop
 * ({@link run}), which takes anything in the subset; the items of a branch through the
 * WebAssembly kernel ({@link itemsAtOnce}), for the one shape that makes a million items; and a
 * dict's branches at once ({@link branchesAtOnce}), one call per metric instead of five opcode
 * dispatches per context. Each fast path takes whole items or nothing, and hands what it does not
 * take to the loop, which hands the next sibling back.
 */
export class DictTreeScanner {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private base = 0;
  private parked: Buffer[] = [];
  private parkedSize = 0;
  private need = 0;
  // The operand stack, typed: kinds, numbers (ints, floats, dict depths) and strings.
  private kinds = new Uint8Array(1024);
  private nums = new Float64Array(1024);
  private strs: (string | undefined)[] = new Array(1024);
  private sp = 0;
  private marks: number[] = [];
  /** The hot loop over leaf items, in WebAssembly: it also holds the memo. */
  private readonly kernel = new DictItemsKernel(1 << 12);
  private readonly memo = new StringMemo(this.kernel);
  private readonly wanted = new WantedKeys(this.memo, this.kernel);
  /** The opcode readOp decoded last (one per scanner: decoding allocates nothing). */
  private readonly op = new Op();
  private readonly path: PyValue[] = [];
  private readonly names: string[] = [];
  private readonly values = new Float64Array(64);
  private stopped = false;
  /** Where, in the buffer, the EMPTY_DICT being opened is (see {@link branchOffset}). */
  private openedAt = 0;
  /** The key {@link keyAt} read last: a str, else an int in keyNum; a new str's memo index. */
  private keyStr: string | undefined;
  private keyNum = 0;
  private keyPut = -1;

  /**
   * `wantLeaves(path)`, when given, is asked once per dict one level above the leaves (its key
   * path is `path[0 .. depth-2]`; later entries are stale) and returns the leaf keys of that dict
   * to report (undefined: all); the others are skipped unread.
   */
  constructor(
    private readonly name: string,
    private readonly depth: number,
    private readonly onLeaf: OnLeaf,
    private readonly wantLeaves?: (branch: readonly PyValue[]) => WantedLeaves | undefined,
  ) {}

  /**
   * Inside `wantLeaves`: the stream offset of the EMPTY_DICT opcode of the branch asked about, and
   * the memo's length at that point (the index a MEMOIZE right after it gives the dict).
   */
  get branchOffset(): number {
    return this.base + this.openedAt;
  }

  get memoLength(): number {
    return this.memo.length;
  }

  /** The memo's strings (index → string): what later bytes of the stream may refer to. */
  memoStrings(): Map<number, string> {
    return this.memo.strings();
  }

  feed(chunk: Uint8Array): void {
    if (this.stopped) return;
    const c = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    this.parked.push(c);
    this.parkedSize += c.length;
    if (this.need > 0 && this.buf.length - this.pos + this.parkedSize < this.need) return;
    const rest = this.buf.subarray(this.pos);
    this.base += this.pos;
    const parked = this.parked;
    this.parked = [];
    this.parkedSize = 0;
    this.need = 0;
    this.pos = 0;
    if (rest.length === 0 && parked.length === 1) {
      this.buf = parked[0]!;
      this.run();
      return;
    }
    const big = parked.length === 1 ? parked[0]! : undefined;
    if (big && rest.length <= STITCH && big.length > 2 * STITCH) {
      // An item cut by the chunk boundary: run over the old tail and the start of the new chunk
      // only, then on the new chunk itself (no copy of the whole chunk per chunk).
      this.buf = Buffer.concat([rest, big.subarray(0, STITCH)]);
      this.run();
      if (this.stopped) return;
      if (this.pos >= rest.length) {
        this.base += rest.length;
        this.pos -= rest.length;
        this.buf = big;
        this.need = 0;
        this.run();
        return;
      }
      // Not past the old tail (an opcode longer than the stitch): take it all, offsets unchanged.
      this.need = 0;
    }
    this.buf = Buffer.concat([rest, ...parked]);
    this.run();
  }

  finish(): void {
    if (!this.stopped) {
      throw new InputError(
        this.name,
        { offset: this.base + this.buf.length + this.parkedSize },
        "more pickle opcodes up to STOP",
        "end of file",
      );
    }
  }

  private grow(): void {
    const n = this.kinds.length * 2;
    const k = new Uint8Array(n);
    k.set(this.kinds);
    const v = new Float64Array(n);
    v.set(this.nums);
    this.kinds = k;
    this.nums = v;
    this.strs.length = n;
  }

  private pushStr(s: string): void {
    if (this.sp === this.kinds.length) this.grow();
    this.kinds[this.sp] = STR;
    this.strs[this.sp++] = s;
  }

  private pushNum(kind: number, v: number): void {
    if (this.sp === this.kinds.length) this.grow();
    this.kinds[this.sp] = kind;
    this.nums[this.sp++] = v;
  }

  private key(i: number): PyValue {
    return this.kinds[i] === STR ? this.strs[i]! : this.nums[i]!;
  }

  /** Opens a dict (depth from its parent below the open MARK, key the item pushed just before). */
  private openDict(): void {
    const sp = this.sp;
    if (sp === 0) {
      this.pushNum(DICT, 0);
      return;
    }
    const m = this.marks.length > 0 ? this.marks[this.marks.length - 1]! : -1;
    const parent = m > 0 && (sp - m) % 2 === 1 ? m - 1 : sp - 2;
    if (parent < 0 || this.kinds[parent] !== DICT) throw new UnsupportedShape("dict outside a dict tree");
    const d = this.nums[parent]! + 1;
    if (d > this.depth) throw new UnsupportedShape("deeper than the leaves");
    if (d >= 1) this.path[d - 1] = this.key(sp - 1);
    if (d === this.depth - 1 && this.wantLeaves) this.wanted.use(this.wantLeaves(this.path));
    this.pushNum(DICT, d);
  }

  /** Items `from..to` of the dict at stack index `dictAt` are set: a leaf's are reported. */
  private setItems(dictAt: number, from: number, to: number): void {
    const d = this.nums[dictAt]!;
    if (d < this.depth) {
      for (let i = from + 1; i < to; i += 2)
        if (this.kinds[i] !== DICT) throw new UnsupportedShape("a non-dict above the leaves");
      return;
    }
    if (!this.wanted.has(this.path[d - 1]!)) return;
    const n = (to - from) >> 1;
    if (n > this.values.length) throw new UnsupportedShape("a leaf with many items");
    for (let i = 0; i < n; i++) {
      const k = from + 2 * i;
      if (this.kinds[k] !== STR || this.kinds[k + 1] !== FLOAT)
        throw new UnsupportedShape("a leaf item that is not str: float");
      this.names[i] = this.strs[k]!;
      this.values[i] = this.nums[k + 1]!;
    }
    this.onLeaf(this.path, this.names, this.values, n);
  }

  /**
   * Runs opcodes while they are whole in the buffer. The hot ones (those of every item) are
   * handled here and the rest in {@link rareOp}: a small loop that the JIT optimizes once and
   * keeps, where a big one was deoptimized again at each rare opcode's first appearance.
   */
  private run(): void {
    const buf = this.buf;
    const end = buf.length;
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const o = this.op;
    let pos = this.pos;
    while (pos < end && !this.stopped) {
      if (readOp(buf, dv, pos, end, this.memo.length, o) === CUT) {
        // Wait for at least the rest of this opcode (or one more byte when its size is unknown).
        this.need = o.need > 0 ? o.need : end - pos + 1;
        break;
      }
      const code = o.code;
      let next = o.next;
      if (isMemoGet(code)) {
        const v = this.memo.str(o.arg);
        if (v === undefined) throw new UnsupportedShape("a memo reference to a dict");
        this.pushStr(v);
      } else if (code === op.EMPTY_DICT) {
        this.openedAt = pos;
        this.openDict();
      } else if (code === op.MARK) {
        this.marks.push(this.sp);
        next = this.atOnce(buf, dv, next, end);
      } else next = this.rareOp(code, o, buf, dv, next, end);
      pos = next;
    }
    this.pos = this.stopped ? end : pos;
  }

  /** Any other opcode, decoded in `o`: the position to go on from (`next`, or further). */
  private rareOp(code: number, o: Op, buf: Buffer, dv: DataView, next: number, end: number): number {
    if (isMemoPut(code)) {
      const top = this.sp - 1;
      if (top < 0) throw new UnsupportedShape("memo of nothing");
      this.memo.set(o.arg, this.kinds[top] === STR ? this.strs[top]! : undefined);
    } else if (isStr(code)) {
      const s = strOf(buf, o);
      if (s === undefined) throw new UnsupportedShape("surrogates in a str");
      this.pushStr(s);
    } else if (isBinInt(code)) this.pushNum(INT, o.arg);
    else if (code === op.BINFLOAT) this.pushNum(FLOAT, o.float);
    else if (code === op.SETITEMS) {
      const m = this.marks.pop();
      if (m === undefined || m === 0 || this.kinds[m - 1] !== DICT || (this.sp - m) % 2 !== 0)
        throw new UnsupportedShape("SETITEMS shape");
      this.setItems(m - 1, m, this.sp);
      this.sp = m;
      // A dict closed the slow way (its bytes were cut, or another shape): its siblings are taken
      // in one go again.
      return this.atOnce(buf, dv, next, end);
    } else if (code === op.SETITEM) {
      if (this.sp < 3 || this.kinds[this.sp - 3] !== DICT) throw new UnsupportedShape("SETITEM shape");
      this.setItems(this.sp - 3, this.sp - 2, this.sp);
      this.sp -= 2;
      return this.atOnce(buf, dv, next, end);
    } else if (code === op.STOP) {
      this.stopped = true;
      return end;
    } else if (code !== op.FRAME && code !== op.PROTO)
      throw new UnsupportedShape(`opcode 0x${code.toString(16)}`);
    return next;
  }

  /**
   * At `p`, between the items of the dict whose MARK is open: the fast path for its level takes
   * what it can (the items of a branch, or the branches of a dict two levels above the leaves).
   */
  private atOnce(buf: Buffer, dv: DataView, p: number, end: number): number {
    const m = this.marks.length > 0 ? this.marks[this.marks.length - 1]! : 0;
    if (m === 0 || this.kinds[m - 1] !== DICT || (this.sp - m) % 2 !== 0) return p;
    const d = this.nums[m - 1]!;
    if (d === this.depth - 1) return this.itemsAtOnce(buf, dv, p, end);
    if (d === this.depth - 2) return this.branchesAtOnce(buf, dv, p, end);
    return p;
  }

  /**
   * A dict key at `p`, read without side effects: a memo reference to a str, a new str with its
   * memo op (if any) or, when `ints`, a BININT1/BININT2/BININT. Returns where it ends, or -1 when
   * it is another op, a reference to no str, undecodable UTF-8 or bytes cut at `end`. The key is
   * left in {@link keyStr} (undefined for an int, then in {@link keyNum}), a new str's memo index
   * in {@link keyPut} (-1: none).
   */
  private keyAt(buf: Buffer, dv: DataView, p: number, end: number, ints: boolean): number {
    const o = this.op;
    this.keyStr = undefined;
    this.keyPut = -1;
    if (readOp(buf, dv, p, end, this.memo.length, o) === CUT) return -1;
    const c = o.code;
    if (isMemoGet(c)) {
      this.keyStr = this.memo.str(o.arg);
      return this.keyStr === undefined ? -1 : o.next;
    }
    if (isStr(c)) {
      const key = strOf(buf, o);
      const q = o.next;
      // Whether a memo put follows is known only once its byte is here.
      if (key === undefined || readOp(buf, dv, q, end, this.memo.length, o) === CUT) return -1;
      this.keyStr = key;
      if (!isMemoPut(o.code)) return q;
      this.keyPut = o.arg;
      return o.next;
    }
    if (!ints || !isBinInt(c)) return -1;
    this.keyNum = o.arg;
    return o.next;
  }

  /**
   * The items of a dict two levels above the leaves, right after its MARK: key (int, memo
   * reference to a str, or new str with its memo op) EMPTY_DICT [memo op] MARK, the branch's
   * items ({@link itemsAtOnce}), SETITEMS. A branch closed here leaves nothing on the stack, as
   * the opcodes would not; one its items stop short of closing (bytes cut, another shape) is left
   * open as the opcodes would have it, key and dict on the stack, its MARK pushed. Returns the
   * position of the first opcode not taken.
   */
  private branchesAtOnce(buf: Buffer, dv: DataView, pos: number, end: number): number {
    const at = this.depth - 2;
    const o = this.op;
    let p = pos;
    while (p < end) {
      let q = this.keyAt(buf, dv, p, end, true);
      if (q < 0 || q >= end || buf[q] !== op.EMPTY_DICT) return p;
      const str = this.keyStr;
      const num = this.keyNum;
      const keyPut = this.keyPut;
      const dictAt = q;
      const memoLen = keyPut >= this.memo.length ? keyPut + 1 : this.memo.length;
      if (readOp(buf, dv, q + 1, end, memoLen, o) === CUT) return p;
      const dictPut = isMemoPut(o.code) ? o.arg : -1;
      q = dictPut >= 0 ? o.next : q + 1;
      if (q >= end || buf[q] !== op.MARK) return p;
      // Taken: the side effects in the opcodes' order.
      if (keyPut >= 0) this.memo.set(keyPut, str);
      this.path[at] = str ?? num;
      if (this.wantLeaves) {
        this.openedAt = dictAt;
        this.wanted.use(this.wantLeaves(this.path));
      }
      if (dictPut >= 0) this.memo.set(dictPut, undefined);
      const after = this.itemsAtOnce(buf, dv, q + 1, end);
      if (after < end && buf[after] === op.SETITEMS) {
        p = after + 1;
        continue;
      }
      if (str !== undefined) this.pushStr(str);
      else this.pushNum(INT, num);
      this.pushNum(DICT, at + 1);
      this.marks.push(this.sp);
      return after;
    }
    return p;
  }

  /**
   * The items of a branch (a dict one level above the leaves) through the WebAssembly kernel,
   * while they have its shape (`key EMPTY_DICT memo MARK name BINFLOAT name BINFLOAT SETITEMS`,
   * key and names memo references to strings): the position of the first item it did not take,
   * which the opcode loop then reads (a new key string, the closing SETITEMS, bytes cut...).
   */
  private itemsAtOnce(buf: Buffer, dv: DataView, p: number, end: number): number {
    if (p + ITEM_MAX > end) return p;
    const k = this.kernel;
    const memo = this.memo;
    if (k.loaded !== buf) {
      k.load(buf);
      memo.refresh();
    }
    for (;;) {
      p = k.items(p, end, memo.length);
      memo.length = k.memoLength;
      if (!k.report) return p;
      // The kernel reports the wanted keys it knows as ids, every key when there are many.
      const keyId = k.keyId;
      if (this.wanted.hasId(keyId)) {
        this.path[this.depth - 1] = memo.name(keyId);
        this.names[0] = memo.name(k.name1Id);
        this.names[1] = memo.name(k.name2Id);
        this.values[0] = dv.getFloat64(k.value1At);
        this.values[1] = dv.getFloat64(k.value2At);
        this.onLeaf(this.path, this.names, this.values, 2);
      }
    }
  }
}

/** Scans a byte source with {@link DictTreeScanner}. */
export async function scanDictTree(
  source: ByteSource,
  depth: number,
  onLeaf: OnLeaf,
  wantLeaves?: (branch: readonly PyValue[]) => WantedLeaves | undefined,
): Promise<void> {
  const s = new DictTreeScanner(source.name, depth, onLeaf, wantLeaves);
  for await (const c of source.chunks) s.feed(c);
  s.finish();
}
