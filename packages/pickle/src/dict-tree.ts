// A fast, allocation-free scan of pickled dict trees whose leaves map names to floats (eval dicts).
import { type ByteSource, InputError } from "@convkit/io";
import { DictItemsKernel } from "./dict-items.js";
import * as op from "./opcodes.js";
import type { PyValue } from "./values.js";

const STR = 1;
const INT = 2;
const FLOAT = 3;
const DICT = 4;

/** Where the op read by {@link memoOpAt} or {@link memoGetAt} ends. */
let opEnd = 0;

/** The most bytes an item of {@link DictTreeScanner}'s fixed shape takes (all memo ops long). */
const FIXED_ITEM_MAX = 5 + 1 + 5 + 1 + 5 + 9 + 5 + 9 + 1;

/** Bytes of a new chunk stitched to the cut tail of the previous one (see `feed`). */
const STITCH = 1 << 12;

/**
 * An optional memo op (BINPUT, LONG_BINPUT, MEMOIZE) at p: its index, -1 when there is none, -2
 * when the bytes are cut; `opEnd` is set to the position after it.
 */
function memoOpAt(buf: Buffer, dv: DataView, p: number, end: number, memoLen: number): number {
  opEnd = p;
  if (p >= end) return -2;
  const c = buf[p];
  if (c === op.BINPUT) {
    if (p + 2 > end) return -2;
    opEnd = p + 2;
    return buf[p + 1]!;
  }
  if (c === op.LONG_BINPUT) {
    if (p + 5 > end) return -2;
    opEnd = p + 5;
    return dv.getUint32(p + 1, true);
  }
  if (c === op.MEMOIZE) {
    opEnd = p + 1;
    return memoLen;
  }
  return -1;
}

/**
 * A memo reference (BINGET, LONG_BINGET) at p: its index, -1 when the op is another, -2 when the
 * bytes are cut; `opEnd` is set to the position after it.
 */
function memoGetAt(buf: Buffer, dv: DataView, p: number, end: number): number {
  const c = buf[p];
  if (c === op.BINGET) {
    if (p + 2 > end) return -2;
    opEnd = p + 2;
    return buf[p + 1]!;
  }
  if (c === op.LONG_BINGET) {
    if (p + 5 > end) return -2;
    opEnd = p + 5;
    return dv.getUint32(p + 1, true);
  }
  return -1;
}

/** The `len` bytes at `at` as a string when they are all ASCII (no decoder call), else undefined. */
function asciiAt(buf: Buffer, at: number, len: number): string | undefined {
  if (len > 16) return undefined;
  let s = "";
  for (let i = at; i < at + len; i++) {
    const b = buf[i]!;
    if (b >= 0x80) return undefined;
    s += String.fromCharCode(b);
  }
  return s;
}

/**
 * The leaf keys of a branch worth reporting: a set, or a short list (no copy is made of it: a
 * caller answering each branch with its own few keys keeps them as lists).
 */
export type WantedLeaves = ReadonlySet<PyValue> | readonly PyValue[];

function isList(w: WantedLeaves): w is readonly PyValue[] {
  return Array.isArray(w);
}

/** The scan met something outside its fast subset; the caller falls back to the general reader. */
export class UnsupportedShape extends Error {}

/**
 * Streams the float leaves of a pickled tree of dicts (str/int keys) as CPython writes eval dicts:
 * `onLeaf(path, names, values, n)` for every dict `depth` levels down, with its key path and its
 * `n` items (`names[i]: values[i]`, floats). Nothing is allocated per item, so tens of MB scan in
 * a fraction of the time building them takes. Opcodes outside that shape throw
 * {@link UnsupportedShape}; use the general unpickler's `leaves` mode then. A dict of one item
 * above the leaves (CPython's SETITEM without MARK) cannot be told from an empty dict followed
 * by its parent's next key until later: such trees are outside the subset too (eval dicts never
 * have one: every context holds MAX and MIN).
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
  // The memo, compactly: per index 0 (unset), -1 (a dict) or k (the string strTab[k - 1]). A typed
  // array because the leaf dicts alone take a million entries, which as a JS array cost more to
  // grow and to trace through GC than the rest of the scan. A view of the kernel's memory.
  private memoRef = this.kernel.memo;
  private memoLen = 0;
  private readonly strTab: string[] = [];
  /**
   * Each distinct string's index + 1 in strTab: equal strings get one id, so a leaf's key is
   * checked against the wanted ones as small integers (comparing two different strings of equal
   * length reads their characters, and that per item was a fifth of the scan).
   */
  private readonly strId = new Map<string, number>();

  private intern(s: string): number {
    const id = this.strId.get(s);
    if (id !== undefined) return id;
    const added = this.strTab.push(s);
    this.strId.set(s, added);
    return added;
  }

  /** Sets memo entry `idx` to a string, or to a dict for `undefined`. */
  private memoSet(idx: number, s: string | undefined): void {
    if (idx >= this.memoRef.length) {
      this.kernel.growMemo(idx + 1);
      this.memoRef = this.kernel.memo;
    }
    if (s === undefined) this.memoRef[idx] = -1;
    else this.memoRef[idx] = this.intern(s);
    if (idx >= this.memoLen) this.memoLen = idx + 1;
  }

  /** The string at memo index `idx`, or undefined (unset, or a dict). */
  private memoStr(idx: number): string | undefined {
    const r = idx < this.memoLen ? this.memoRef[idx]! : 0;
    return r > 0 ? this.strTab[r - 1] : undefined;
  }
  private readonly path: PyValue[] = [];
  private readonly names: string[] = [];
  /** Where, in the buffer, the EMPTY_DICT being opened is (see {@link branchOffset}). */
  private openedAt = 0;
  /** The key {@link keyAt} read last: a str, else an int in keyNum; a new str's memo index. */
  private keyStr: string | undefined;
  private keyNum = 0;
  private keyPut = -1;

  /**
   * Inside `wantLeaves`: the stream offset of the EMPTY_DICT opcode of the branch asked about, and
   * the memo's length at that point (the index a MEMOIZE right after it gives the dict).
   */
  get branchOffset(): number {
    return this.base + this.openedAt;
  }

  get memoLength(): number {
    return this.memoLen;
  }

  /** The memo's strings (index → string): what later bytes of the stream may refer to. */
  memoStrings(): Map<number, string> {
    const out = new Map<number, string>();
    for (let i = 0; i < this.memoLen; i++) {
      const r = this.memoRef[i]!;
      if (r > 0) out.set(i, this.strTab[r - 1]!);
    }
    return out;
  }
  private readonly values = new Float64Array(64);
  private stopped = false;

  /** What `wantLeaves` last returned. */
  private wantedFrom: WantedLeaves | undefined;
  private wanted: ReadonlySet<PyValue> | undefined;
  /** The wanted keys as a list when they are few: a few comparisons beat a hash lookup per item. */
  private wantedFew: readonly PyValue[] | undefined;
  /** The string ids of `wantedFew`'s strings (the first `wantedIdCount`). */
  private wantedIds = new Int32Array(4);
  private wantedIdCount = 0;

  /** Whether a leaf whose key is the string of id `id` is wanted. */
  private isWantedId(id: number): boolean {
    if (this.wantedFew !== undefined) {
      const ids = this.wantedIds;
      for (let i = 0; i < this.wantedIdCount; i++) if (ids[i] === id) return true;
      return false;
    }
    return this.wanted === undefined || this.wanted.has(this.strTab[id - 1]!);
  }

  private isWanted(key: PyValue): boolean {
    const few = this.wantedFew;
    if (few !== undefined) {
      for (let i = 0; i < few.length; i++) if (few[i] === key) return true;
      return false;
    }
    return this.wanted === undefined || this.wanted.has(key);
  }

  private setWanted(w: WantedLeaves | undefined): void {
    this.wantedFrom = w;
    if (w === undefined) {
      this.wanted = undefined;
      this.wantedFew = undefined;
    } else if (isList(w)) {
      this.wanted = undefined;
      this.wantedFew = w;
    } else {
      this.wanted = w;
      this.wantedFew = w.size <= 4 ? [...w] : undefined;
    }
    const few = this.wantedFew;
    if (few === undefined) {
      this.kernel.setWanted(undefined, 0);
      return;
    }
    if (few.length > this.wantedIds.length) this.wantedIds = new Int32Array(few.length);
    let n = 0;
    for (const k of few) if (typeof k === "string") this.wantedIds[n++] = this.intern(k);
    this.wantedIdCount = n;
    this.kernel.setWanted(this.wantedIds, n);
  }

  /**
   * `wantLeaves(path)`, when given, is asked once per dict one level above the leaves (its key
   * path is `path[0 .. depth-2]`; later entries are stale) and
   * returns the leaf keys of that dict to report (undefined: all); the others are skipped unread.
   */
  constructor(
    private readonly name: string,
    private readonly depth: number,
    private readonly onLeaf: (
      path: readonly PyValue[],
      names: readonly string[],
      values: Float64Array,
      n: number,
    ) => void,
    private readonly wantLeaves?: (branch: readonly PyValue[]) => WantedLeaves | undefined,
  ) {}

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

  /** A new dict: depth from its parent (below the open MARK), key = the item pushed just before. */
  /** Opens a dict and returns its depth. */
  private openDict(): number {
    const sp = this.sp;
    if (sp === 0) {
      this.pushNum(DICT, 0);
      return 0;
    }
    const m = this.marks.length > 0 ? this.marks[this.marks.length - 1]! : -1;
    const parent = m > 0 && (sp - m) % 2 === 1 ? m - 1 : sp - 2;
    if (parent < 0 || this.kinds[parent] !== DICT) throw new UnsupportedShape("dict outside a dict tree");
    const d = this.nums[parent]! + 1;
    if (d > this.depth) throw new UnsupportedShape("deeper than the leaves");
    if (d >= 1) this.path[d - 1] = this.key(sp - 1);
    if (d === this.depth - 1 && this.wantLeaves) {
      const wanted = this.wantLeaves(this.path);
      if (wanted !== this.wantedFrom) this.setWanted(wanted);
    }
    this.pushNum(DICT, d);
    return d;
  }

  private readonly pendingIdx: number[] = [];
  private readonly pendingStr: string[] = [];

  /**
   * The whole of a leaf dict in one go, when its bytes have CPython's usual shape right after
   * EMPTY_DICT: [memo op] (MARK (key BINFLOAT)* SETITEMS | key BINFLOAT SETITEM), keys being
   * memo references or new strings (with their memo op). Returns the position after it, or -1
   * (nothing consumed, no side effects) to let the opcode loop take it step by step.
   */
  private leafAtOnce(buf: Buffer, dv: DataView, pos: number, end: number): number {
    let memoLen = this.memoLen;
    let p = pos;
    let dictIdx = -1;
    dictIdx = memoOpAt(buf, dv, p, end, memoLen);
    if (dictIdx === -2) return -1;
    p = opEnd;
    if (dictIdx >= 0) memoLen = Math.max(memoLen, dictIdx + 1);
    if (p >= end) return -1;
    const marked = buf[p] === op.MARK;
    if (marked) p++;
    const names = this.names;
    const values = this.values;
    const pIdx = this.pendingIdx;
    const pStr = this.pendingStr;
    let np = 0; // pending memo writes of new key strings (arrays reused; never shrink them: slow)
    let n = 0;
    for (;;) {
      if (p >= end) return -1;
      const c = buf[p]!;
      if (marked && c === op.SETITEMS) {
        p++;
        break;
      }
      if (!marked && n === 1) {
        if (c !== op.SETITEM) return -1;
        p++;
        break;
      }
      if (n === values.length) return -1;
      let key: string;
      const idx = memoGetAt(buf, dv, p, end);
      if (idx === -2) return -1;
      if (idx >= 0) {
        p = opEnd;
        let v: string | undefined;
        let k = -1;
        for (let i = 0; i < np; i++) if (pIdx[i] === idx) k = i;
        if (k >= 0) v = pStr[k];
        else v = this.memoStr(idx);
        if (v === undefined) return -1;
        key = v;
      } else if (c === op.SHORT_BINUNICODE || c === op.BINUNICODE) {
        const w = c === op.SHORT_BINUNICODE ? 1 : 4;
        if (p + 1 + w > end) return -1;
        const len = w === 1 ? buf[p + 1]! : dv.getUint32(p + 1, true);
        if (p + 1 + w + len > end) return -1;
        key = buf.toString("utf8", p + 1 + w, p + 1 + w + len);
        if (key.indexOf("\uFFFD") >= 0) return -1;
        p += 1 + w + len;
        const idx = memoOpAt(buf, dv, p, end, memoLen);
        if (idx === -2) return -1;
        p = opEnd;
        if (idx >= 0) {
          pIdx[np] = idx;
          pStr[np++] = key;
          memoLen = Math.max(memoLen, idx + 1);
        }
      } else return -1;
      if (p + 9 > end || buf[p] !== op.BINFLOAT) return -1;
      names[n] = key;
      values[n] = dv.getFloat64(p + 1);
      p += 9;
      n++;
    }
    // Matched: now the side effects, in the order the opcodes would have had them.
    if (dictIdx >= 0) this.memoSet(dictIdx, undefined);
    for (let i = 0; i < np; i++) this.memoSet(pIdx[i]!, pStr[i]!);
    if (this.isWanted(this.path[this.depth - 1]!)) this.onLeaf(this.path, names, values, n);
    return p;
  }

  /**
   * The items of a dict one level above the leaves, right after its MARK, while they have
   * CPython's usual shape: key (memo reference, or new str with its memo op) EMPTY_DICT leaf.
   * Returns the position of the first item not taken (its bytes cut, another shape, or the
   * closing SETITEMS), which the opcode loop then takes; no item is taken halfway.
   */
  private itemsAtOnce(buf: Buffer, dv: DataView, pos: number, end: number): number {
    const path = this.path;
    const at = this.depth - 1;
    let p = pos;
    for (;;) {
      if (p + FIXED_ITEM_MAX <= end) p = this.fixedItems(buf, dv, p, end);
      if (p + FIXED_ITEM_MAX <= end) {
        // What the kernel does not take: a new key string, a memo to grow.
        const next = this.fixedItem(buf, dv, p);
        if (next >= 0) {
          p = next;
          continue;
        }
      }
      const q = this.keyAt(buf, dv, p, end, false);
      if (q < 0) return p;
      const key = this.keyStr!;
      const newIdx = this.keyPut;
      if (q >= end || buf[q] !== op.EMPTY_DICT) return p;
      // The key's memo entry comes first (the leaf's own memo ops may count on it); undone on failure.
      const prevLen = this.memoLen;
      const prev = newIdx >= 0 && newIdx < this.memoRef.length ? this.memoRef[newIdx]! : 0;
      if (newIdx >= 0) this.memoSet(newIdx, key);
      path[at] = key;
      const next = this.leafAtOnce(buf, dv, q + 1, end);
      if (next < 0) {
        // (The key stays interned: an id says what a string is, not that it was seen.)
        if (newIdx >= 0) {
          this.memoRef[newIdx] = prev;
          this.memoLen = prevLen;
        }
        return p;
      }
      p = next;
    }
  }

  /**
   * A dict key at `p`, read without side effects: a memo reference to a str, a new str with its
   * memo op (if any) or, when `ints`, a BININT1/BININT2/BININT. Returns where it ends, or -1 when
   * it is another op, a reference to no str, undecodable UTF-8 or bytes cut at `end`. The key is
   * left in {@link keyStr} (undefined for an int, then in {@link keyNum}), a new str's memo index
   * in {@link keyPut} (-1: none).
   */
  private keyAt(buf: Buffer, dv: DataView, p: number, end: number, ints: boolean): number {
    this.keyStr = undefined;
    this.keyPut = -1;
    if (p >= end) return -1;
    const ref = memoGetAt(buf, dv, p, end);
    if (ref >= 0) {
      this.keyStr = this.memoStr(ref);
      return this.keyStr === undefined ? -1 : opEnd;
    }
    if (ref === -2) return -1;
    const c = buf[p]!;
    if (c === op.SHORT_BINUNICODE || c === op.BINUNICODE) {
      const w = c === op.SHORT_BINUNICODE ? 1 : 4;
      if (p + 1 + w > end) return -1;
      const len = w === 1 ? buf[p + 1]! : dv.getUint32(p + 1, true);
      const q = p + 1 + w + len;
      if (q > end) return -1;
      const key = buf.toString("utf8", p + 1 + w, q);
      if (key.indexOf("\uFFFD") >= 0) return -1;
      const put = memoOpAt(buf, dv, q, end, this.memoLen);
      if (put === -2) return -1;
      this.keyStr = key;
      this.keyPut = put;
      return opEnd;
    }
    if (!ints) return -1;
    if (c === op.BININT1 && p + 2 <= end) {
      this.keyNum = buf[p + 1]!;
      return p + 2;
    }
    if (c === op.BININT2 && p + 3 <= end) {
      this.keyNum = buf[p + 1]! | (buf[p + 2]! << 8);
      return p + 3;
    }
    if (c === op.BININT && p + 5 <= end) {
      this.keyNum = dv.getInt32(p + 1, true);
      return p + 5;
    }
    return -1;
  }

  /** Whether the next opcode starts an item of a dict two levels above the leaves (after its MARK). */
  private inBranches(): boolean {
    const m = this.marks.length > 0 ? this.marks[this.marks.length - 1]! : 0;
    return (
      m > 0 && this.kinds[m - 1] === DICT && this.nums[m - 1] === this.depth - 2 && (this.sp - m) % 2 === 0
    );
  }

  /**
   * The items of a dict two levels above the leaves, right after its MARK: key (int, memo
   * reference to a str, or new str with its memo op) EMPTY_DICT [memo op] MARK, the branch's
   * items ({@link itemsAtOnce}), SETITEMS. A branch closed here leaves nothing on the stack, as
   * the opcodes would not; one its items stop short of closing (bytes cut, another shape) is left
   * open as the opcodes would have it, key and dict on the stack, its MARK pushed. Returns the
   * position of the first opcode not taken. One call per eval-dict metric instead of five opcode
   * dispatches per context: a hundred thousand contexts make that a good part of a scan.
   */
  private branchesAtOnce(buf: Buffer, dv: DataView, pos: number, end: number): number {
    const at = this.depth - 2;
    let p = pos;
    while (p < end) {
      let q = this.keyAt(buf, dv, p, end, true);
      if (q < 0 || q >= end || buf[q] !== op.EMPTY_DICT) return p;
      const str = this.keyStr;
      const num = this.keyNum;
      const keyPut = this.keyPut;
      const dictAt = q;
      const dictPut = memoOpAt(buf, dv, q + 1, end, keyPut >= this.memoLen ? keyPut + 1 : this.memoLen);
      if (dictPut === -2) return p;
      q = opEnd;
      if (q >= end || buf[q] !== op.MARK) return p;
      // Taken: the side effects in the opcodes' order.
      if (keyPut >= 0) this.memoSet(keyPut, str);
      this.path[at] = str ?? num;
      if (this.wantLeaves) {
        this.openedAt = dictAt;
        const wanted = this.wantLeaves(this.path);
        if (wanted !== this.wantedFrom) this.setWanted(wanted);
      }
      if (dictPut >= 0) this.memoSet(dictPut, undefined);
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
   * Items of the commonest shape ({@link fixedItem}'s, with keys already in the memo) through the
   * WebAssembly kernel, while it takes them: the position of the first item it did not take.
   */
  private fixedItems(buf: Buffer, dv: DataView, p: number, end: number): number {
    const k = this.kernel;
    if (k.loaded !== buf) {
      k.load(buf);
      this.memoRef = k.memo;
    }
    const st = k.state;
    for (;;) {
      p = k.items(p, end, this.memoLen);
      this.memoLen = st[0]!;
      if (st[6] === 0) return p;
      const keyId = st[1]!;
      if (this.isWantedId(keyId)) {
        this.path[this.depth - 1] = this.strTab[keyId - 1]!;
        this.names[0] = this.strTab[st[2]! - 1]!;
        this.names[1] = this.strTab[st[3]! - 1]!;
        this.values[0] = dv.getFloat64(st[4]!);
        this.values[1] = dv.getFloat64(st[5]!);
        this.onLeaf(this.path, this.names, this.values, 2);
      }
    }
  }

  /**
   * One item of the commonest shape, read at fixed offsets: a memoized key, then a leaf of two
   * memoized names and two floats (`EMPTY_DICT memo MARK get BINFLOAT get BINFLOAT SETITEMS`).
   * The whole of it must be in the buffer ({@link FIXED_ITEM_MAX} bytes from `p`). Returns the
   * position after it, or -1 (nothing done) for any other shape. A million of these make an eval
   * dict, so the opcodes are decoded inline, and the floats and names of a leaf nobody wants are
   * not read at all.
   */
  private fixedItem(buf: Buffer, dv: DataView, p: number): number {
    let q = p;
    let c = buf[q]!;
    let k = -1;
    // A key seen before is a memo reference; a new one (the first time a question id appears) a
    // short str with its memo op, read here too when its bytes fit.
    let newKey: string | undefined;
    let keyPut = -1;
    let memoLen = this.memoLen;
    if (c === op.LONG_BINGET) {
      k = dv.getUint32(q + 1, true);
      q += 5;
    } else if (c === op.BINGET) {
      k = buf[q + 1]!;
      q += 2;
    } else if (c === op.SHORT_BINUNICODE || c === op.BINUNICODE) {
      const w = c === op.SHORT_BINUNICODE ? 1 : 4;
      const len = w === 1 ? buf[q + 1]! : dv.getUint32(q + 1, true);
      const at = q + 1 + w;
      if (at + len + FIXED_ITEM_MAX > buf.length) return -1;
      newKey = asciiAt(buf, at, len) ?? buf.toString("utf8", at, at + len);
      if (newKey.indexOf("\uFFFD") >= 0) return -1;
      q = at + len;
      c = buf[q]!;
      if (c === op.LONG_BINPUT) {
        keyPut = dv.getUint32(q + 1, true);
        q += 5;
      } else if (c === op.BINPUT) {
        keyPut = buf[q + 1]!;
        q += 2;
      } else if (c === op.MEMOIZE) {
        keyPut = memoLen;
        q += 1;
      } else return -1;
      if (keyPut >= memoLen) memoLen = keyPut + 1;
    } else return -1;
    if (buf[q] !== op.EMPTY_DICT) return -1;
    c = buf[q + 1]!;
    let d: number;
    if (c === op.LONG_BINPUT) {
      d = dv.getUint32(q + 2, true);
      q += 6;
    } else if (c === op.BINPUT) {
      d = buf[q + 2]!;
      q += 3;
    } else if (c === op.MEMOIZE) {
      d = memoLen;
      q += 2;
    } else return -1;
    if (d === keyPut) return -1;
    if (buf[q] !== op.MARK) return -1;
    c = buf[++q]!;
    let n1: number;
    if (c === op.BINGET) {
      n1 = buf[q + 1]!;
      q += 2;
    } else if (c === op.LONG_BINGET) {
      n1 = dv.getUint32(q + 1, true);
      q += 5;
    } else return -1;
    if (buf[q] !== op.BINFLOAT) return -1;
    const xAt = q + 1;
    q += 9;
    c = buf[q]!;
    let n2: number;
    if (c === op.BINGET) {
      n2 = buf[q + 1]!;
      q += 2;
    } else if (c === op.LONG_BINGET) {
      n2 = dv.getUint32(q + 1, true);
      q += 5;
    } else return -1;
    if (buf[q] !== op.BINFLOAT) return -1;
    const yAt = q + 1;
    q += 9;
    if (buf[q] !== op.SETITEMS) return -1;
    // The names are looked up before the item's memo entries are set: a name referring to one of
    // them is left to the opcode loop.
    if (n1 === d || n2 === d || n1 === keyPut || n2 === keyPut) return -1;
    const ref = this.memoRef;
    const known = this.memoLen;
    const r1 = n1 < known ? ref[n1]! : 0;
    const r2 = n2 < known ? ref[n2]! : 0;
    if (r1 <= 0 || r2 <= 0) return -1;
    let keyId: number;
    if (newKey === undefined) {
      keyId = k < known ? ref[k]! : 0;
      if (keyId <= 0) return -1;
    } else {
      this.memoSet(keyPut, newKey);
      keyId = this.memoRef[keyPut]!;
    }
    // memoSet may have grown the memo just now: this.memoRef, not ref.
    if (d < this.memoRef.length) {
      this.memoRef[d] = -1;
      if (d >= this.memoLen) this.memoLen = d + 1;
    } else this.memoSet(d, undefined);
    // The leaf's own path entry is written for wanted leaves only: nothing else reads it.
    if (this.isWantedId(keyId)) {
      this.path[this.depth - 1] = this.strTab[keyId - 1]!;
      this.names[0] = this.strTab[r1 - 1]!;
      this.names[1] = this.strTab[r2 - 1]!;
      this.values[0] = dv.getFloat64(xAt);
      this.values[1] = dv.getFloat64(yAt);
      this.onLeaf(this.path, this.names, this.values, 2);
    }
    return q + 1;
  }

  private setItems(dictAt: number, from: number, to: number): void {
    const d = this.nums[dictAt]!;
    if (d < this.depth) {
      for (let i = from + 1; i < to; i += 2)
        if (this.kinds[i] !== DICT) throw new UnsupportedShape("a non-dict above the leaves");
      return;
    }
    if (!this.isWanted(this.path[d - 1]!)) return;
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
    let pos = this.pos;
    while (pos < end && !this.stopped) {
      const code = buf[pos]!;
      let next = -1;
      if (code === op.BINGET || code === op.LONG_BINGET) {
        const idx = memoGetAt(buf, dv, pos, end);
        if (idx >= 0) {
          const v = this.memoStr(idx);
          if (v === undefined) throw new UnsupportedShape("a memo reference to a dict");
          this.pushStr(v);
          next = opEnd;
        }
      } else if (code === op.EMPTY_DICT) {
        next = pos + 1;
        this.openedAt = pos;
        if (this.openDict() === this.depth) {
          const after = this.leafAtOnce(buf, dv, next, end);
          if (after >= 0) next = after;
        }
      } else if (code === op.MARK) {
        next = pos + 1;
        this.marks.push(this.sp);
        // The items of a dict just above the leaves: take as many as are whole in one go.
        if (this.sp > 0 && this.kinds[this.sp - 1] === DICT) {
          const d = this.nums[this.sp - 1]!;
          if (d === this.depth - 1) next = this.itemsAtOnce(buf, dv, next, end);
          else if (d === this.depth - 2) next = this.branchesAtOnce(buf, dv, next, end);
        }
      } else {
        next = this.rareOp(code, buf, dv, pos, end);
        // A branch closed the slow way (its bytes were cut): its siblings are taken in one go again.
        if (code === op.SETITEMS && next >= 0 && this.inBranches())
          next = this.branchesAtOnce(buf, dv, next, end);
      }
      if (next < 0) {
        // Cut: wait for at least the rest of this opcode (or one more byte when its size is unknown).
        if (this.need === 0) this.need = end - pos + 1;
        break;
      }
      pos = next;
    }
    this.pos = this.stopped ? end : pos;
  }

  /** Any other opcode at `pos`: the position after it, or -1 when its bytes are cut. */
  private rareOp(code: number, buf: Buffer, dv: DataView, pos: number, end: number): number {
    const left = end - pos - 1;
    switch (code) {
      case op.BINFLOAT:
        if (left < 8) return -1;
        this.pushNum(FLOAT, dv.getFloat64(pos + 1));
        return pos + 9;
      case op.BINPUT:
      case op.LONG_BINPUT:
      case op.MEMOIZE: {
        const w = code === op.BINPUT ? 1 : code === op.LONG_BINPUT ? 4 : 0;
        if (left < w) return -1;
        const idx = w === 0 ? this.memoLen : w === 1 ? buf[pos + 1]! : dv.getUint32(pos + 1, true);
        const top = this.sp - 1;
        if (top < 0) throw new UnsupportedShape("memo of nothing");
        this.memoSet(idx, this.kinds[top] === STR ? this.strs[top]! : undefined);
        return pos + 1 + w;
      }
      case op.SETITEMS: {
        const m = this.marks.pop();
        if (m === undefined || m === 0 || this.kinds[m - 1] !== DICT || (this.sp - m) % 2 !== 0)
          throw new UnsupportedShape("SETITEMS shape");
        this.setItems(m - 1, m, this.sp);
        this.sp = m;
        return pos + 1;
      }
      case op.SETITEM: {
        if (this.sp < 3 || this.kinds[this.sp - 3] !== DICT) throw new UnsupportedShape("SETITEM shape");
        this.setItems(this.sp - 3, this.sp - 2, this.sp);
        this.sp -= 2;
        return pos + 1;
      }
      case op.SHORT_BINUNICODE:
      case op.BINUNICODE: {
        const w = code === op.SHORT_BINUNICODE ? 1 : 4;
        if (left < w) return -1;
        const n = w === 1 ? buf[pos + 1]! : dv.getUint32(pos + 1, true);
        if (left - w < n) {
          this.need = 1 + w + n;
          return -1;
        }
        const s = buf.toString("utf8", pos + 1 + w, pos + 1 + w + n);
        if (s.indexOf("\uFFFD") >= 0) throw new UnsupportedShape("surrogates in a str");
        this.pushStr(s);
        return pos + 1 + w + n;
      }
      case op.BININT1:
        if (left < 1) return -1;
        this.pushNum(INT, buf[pos + 1]!);
        return pos + 2;
      case op.BININT2:
        if (left < 2) return -1;
        this.pushNum(INT, buf.readUInt16LE(pos + 1));
        return pos + 3;
      case op.BININT:
        if (left < 4) return -1;
        this.pushNum(INT, dv.getInt32(pos + 1, true));
        return pos + 5;
      case op.FRAME:
        return left < 8 ? -1 : pos + 9;
      case op.PROTO:
        return left < 1 ? -1 : pos + 2;
      case op.STOP:
        this.stopped = true;
        return end;
      default:
        throw new UnsupportedShape(`opcode 0x${code.toString(16)}`);
    }
  }
}

/** Scans a byte source with {@link DictTreeScanner}. */
export async function scanDictTree(
  source: ByteSource,
  depth: number,
  onLeaf: (path: readonly PyValue[], names: readonly string[], values: Float64Array, n: number) => void,
  wantLeaves?: (branch: readonly PyValue[]) => WantedLeaves | undefined,
): Promise<void> {
  const s = new DictTreeScanner(source.name, depth, onLeaf, wantLeaves);
  for await (const c of source.chunks) s.feed(c);
  s.finish();
}
