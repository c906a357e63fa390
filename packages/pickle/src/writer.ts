// Writing pickles (protocol 4, framed) that CPython's pickle.load reads; streamable for huge dicts.
import { type ByteSink, type WriteOptions, writeAtomic } from "@convkit/io";
import * as op from "./opcodes.js";
import { PyFloat, PyTuple, type PyValue } from "./values.js";

const FRAME_TARGET = 64 * 1024;
const OPS = {
  EMPTY_DICT: op.EMPTY_DICT,
  EMPTY_LIST: op.EMPTY_LIST,
  MARK: op.MARK,
  SETITEMS: op.SETITEMS,
  SETITEM: op.SETITEM,
  APPENDS: op.APPENDS,
  APPEND: op.APPEND,
} as const;
const BATCH = 1000; // CPython's _BATCHSIZE for APPENDS/SETITEMS

/** Options of {@link PickleWriter}. */
export interface PickleWriterOptions {
  /**
   * Memoize equal strings once (by value, like CPython's memo does for one string object). Bounded
   * by `maxMemoStrings` so memory stays flat on endless distinct strings. Default true.
   */
  memoizeStrings?: boolean;
  maxMemoStrings?: number;
}

/**
 * A protocol-4 pickler that emits framed bytes as it goes. Containers are memoized by identity
 * through a WeakMap (a shared context list is written once, then referenced), strings by value.
 * Use `value` for a whole object, or `beginDict`/`dictItems`/`endDict` to stream a top-level dict.
 */
export class PickleWriter {
  private frame: Buffer = Buffer.allocUnsafe(FRAME_TARGET * 2);
  private len = 0;
  private out: Uint8Array[] = [];
  private memoCount = 0;
  private readonly strMemo = new Map<string, number>();
  private readonly objMemo = new WeakMap<object, number>();
  private readonly memoizeStrings: boolean;
  private readonly maxMemoStrings: number;

  constructor(options: PickleWriterOptions = {}) {
    this.memoizeStrings = options.memoizeStrings ?? true;
    this.maxMemoStrings = options.maxMemoStrings ?? 1_000_000;
    this.out.push(Uint8Array.of(op.PROTO, 4));
  }

  /** Bytes produced so far (complete frames); the caller writes them out. */
  take(): Uint8Array[] {
    const o = this.out;
    this.out = [];
    return o;
  }

  /** Writes one whole value. */
  value(v: PyValue): void {
    this.save(v);
    this.maybeCommit();
  }

  /** Starts a dict whose items follow in `dictItems` batches. */
  beginDict(): void {
    this.byte(op.EMPTY_DICT);
    this.memoizeNew();
  }

  /** Adds items to the dict opened by `beginDict` (one SETITEMS per 1,000). */
  dictItems(items: Iterable<readonly [PyValue, PyValue]>): void {
    let n = 0;
    for (const [k, v] of items) {
      if (n === 0) this.byte(op.MARK);
      this.save(k);
      this.save(v);
      if (++n === BATCH) {
        this.byte(op.SETITEMS);
        n = 0;
        this.maybeCommit();
      }
    }
    if (n > 0) this.byte(op.SETITEMS);
    this.maybeCommit();
  }

  endDict(): void {}

  // Opcode-level writing, for callers that serialize known shapes without building objects
  // (e.g. millions of synthetic records). The caller keeps the stack balanced.

  /** A str (memoized by value, like `value`). */
  str(v: string): void {
    this.saveStr(v);
  }

  /** An int. */
  int(v: number): void {
    this.saveInt(v);
  }

  /** A float (BINFLOAT), integral or not. */
  float(v: number): void {
    this.saveFloat(v);
  }

  /** EMPTY_DICT / EMPTY_LIST / MARK / SETITEMS / SETITEM / APPENDS / APPEND. */
  op(code: keyof typeof OPS): void {
    this.byte(OPS[code]);
  }

  /** Memoizes the object on top of the stack; returns its memo index for `ref`. */
  memoize(): number {
    return this.memoizeNew();
  }

  /** Pushes a memoized object again (BINGET / LONG_BINGET). */
  ref(idx: number): void {
    this.get(idx);
  }

  /** Ends the current frame if it is full (call between items). */
  flushFrame(): void {
    this.maybeCommit();
  }

  /** Ends the pickle (STOP) and flushes the last frame. */
  finish(): void {
    this.byte(op.STOP);
    this.commit();
  }

  private ensure(n: number): void {
    if (this.len + n <= this.frame.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.frame.length * 2, this.len + n));
    this.frame.copy(bigger, 0, 0, this.len);
    this.frame = bigger;
  }

  private byte(b: number): void {
    this.ensure(1);
    this.frame[this.len++] = b;
  }

  private maybeCommit(): void {
    if (this.len >= FRAME_TARGET) this.commit();
  }

  private commit(): void {
    if (this.len === 0) return;
    const head = Buffer.allocUnsafe(9);
    head[0] = op.FRAME;
    head.writeBigUInt64LE(BigInt(this.len), 1);
    this.out.push(head, Buffer.from(this.frame.subarray(0, this.len)));
    this.len = 0;
  }

  private memoizeNew(): number {
    this.byte(op.MEMOIZE);
    return this.memoCount++;
  }

  private get(idx: number): void {
    if (idx < 256) {
      this.ensure(2);
      this.frame[this.len++] = op.BINGET;
      this.frame[this.len++] = idx;
    } else {
      this.ensure(5);
      this.frame[this.len++] = op.LONG_BINGET;
      this.frame.writeUInt32LE(idx, this.len);
      this.len += 4;
    }
  }

  private save(v: PyValue): void {
    switch (typeof v) {
      case "string":
        return this.saveStr(v);
      case "number":
        // Integral numbers within 2^53 are ints; beyond, a JS number can only have been a float (big ints are BigInt).
        return Number.isSafeInteger(v) && !Object.is(v, -0) ? this.saveInt(v) : this.saveFloat(v);
      case "bigint":
        return this.saveBigInt(v);
      case "boolean":
        return this.byte(v ? op.NEWTRUE : op.NEWFALSE);
      case "object":
        break;
      default:
        throw new TypeError(`cannot pickle a ${typeof v}`);
    }
    if (v === null) return this.byte(op.NONE);
    if (v instanceof PyFloat) return this.saveFloat(v.value);
    const seen = this.objMemo.get(v);
    if (seen !== undefined) return this.get(seen);
    if (Array.isArray(v)) {
      this.byte(op.EMPTY_LIST);
      this.objMemo.set(v, this.memoizeNew());
      this.batched(v, op.APPEND, op.APPENDS);
      return;
    }
    if (v instanceof Map) {
      this.byte(op.EMPTY_DICT);
      this.objMemo.set(v, this.memoizeNew());
      this.saveItems(v.entries(), v.size);
      return;
    }
    if (v instanceof PyTuple) return this.saveTuple(v);
    if (v instanceof Uint8Array) return this.saveBytes(v);
    if (v instanceof Set) {
      this.byte(op.EMPTY_SET);
      this.objMemo.set(v, this.memoizeNew());
      const items = [...v];
      for (let i = 0; i < items.length; i += BATCH) {
        this.byte(op.MARK);
        for (const x of items.slice(i, i + BATCH)) this.save(x);
        this.byte(op.ADDITEMS);
      }
      return;
    }
    // A plain object is a dict with string keys.
    this.byte(op.EMPTY_DICT);
    this.objMemo.set(v, this.memoizeNew());
    const entries = Object.entries(v);
    this.saveItems(entries[Symbol.iterator](), entries.length);
  }

  private saveItems(it: Iterator<[PyValue, PyValue]>, size: number): void {
    if (size === 1) {
      const [k, val] = it.next().value as [PyValue, PyValue];
      this.save(k);
      this.save(val);
      this.byte(op.SETITEM);
      return;
    }
    let n = 0;
    for (let r = it.next(); !r.done; r = it.next()) {
      if (n === 0) this.byte(op.MARK);
      this.save(r.value[0]);
      this.save(r.value[1]);
      if (++n === BATCH) {
        this.byte(op.SETITEMS);
        n = 0;
      }
    }
    if (n > 0) this.byte(op.SETITEMS);
  }

  private batched(items: readonly PyValue[], one: number, many: number): void {
    if (items.length === 1) {
      this.save(items[0]!);
      this.byte(one);
      return;
    }
    for (let i = 0; i < items.length; i += BATCH) {
      this.byte(op.MARK);
      const stop = Math.min(items.length, i + BATCH);
      for (let j = i; j < stop; j++) this.save(items[j]!);
      this.byte(many);
    }
  }

  private saveTuple(t: PyTuple): void {
    const n = t.items.length;
    if (n === 0) return this.byte(op.EMPTY_TUPLE);
    if (n <= 3) {
      for (const x of t.items) this.save(x);
      this.byte(op.TUPLE1 + n - 1);
    } else {
      this.byte(op.MARK);
      for (const x of t.items) this.save(x);
      this.byte(op.TUPLE);
    }
    this.objMemo.set(t, this.memoizeNew());
  }

  private saveStr(s: string): void {
    if (this.memoizeStrings) {
      const seen = this.strMemo.get(s);
      if (seen !== undefined) return this.get(seen);
    }
    const bytes = s.length < 128 && isAscii(s) ? undefined : encodeSurrogatePass(s);
    const n = bytes ? bytes.length : s.length;
    this.ensure(n + 9);
    if (n < 256) {
      this.frame[this.len++] = op.SHORT_BINUNICODE;
      this.frame[this.len++] = n;
    } else if (n < 2 ** 32) {
      this.frame[this.len++] = op.BINUNICODE;
      this.frame.writeUInt32LE(n, this.len);
      this.len += 4;
    } else {
      this.frame[this.len++] = op.BINUNICODE8;
      this.frame.writeBigUInt64LE(BigInt(n), this.len);
      this.len += 8;
    }
    if (bytes) bytes.copy(this.frame, this.len);
    else this.frame.write(s, this.len, "latin1");
    this.len += n;
    if (this.memoizeStrings && this.strMemo.size < this.maxMemoStrings)
      this.strMemo.set(s, this.memoizeNew());
  }

  private saveBytes(b: Uint8Array): void {
    const n = b.length;
    this.ensure(n + 9);
    if (n < 256) {
      this.frame[this.len++] = op.SHORT_BINBYTES;
      this.frame[this.len++] = n;
    } else if (n < 2 ** 32) {
      this.frame[this.len++] = op.BINBYTES;
      this.frame.writeUInt32LE(n, this.len);
      this.len += 4;
    } else {
      this.frame[this.len++] = op.BINBYTES8;
      this.frame.writeBigUInt64LE(BigInt(n), this.len);
      this.len += 8;
    }
    this.frame.set(b, this.len);
    this.len += n;
    this.objMemo.set(b, this.memoizeNew());
  }

  private saveInt(v: number): void {
    if (v >= 0 && v < 256) {
      this.ensure(2);
      this.frame[this.len++] = op.BININT1;
      this.frame[this.len++] = v;
    } else if (v >= 0 && v < 65536) {
      this.ensure(3);
      this.frame[this.len++] = op.BININT2;
      this.frame.writeUInt16LE(v, this.len);
      this.len += 2;
    } else if (v >= -(2 ** 31) && v < 2 ** 31) {
      this.ensure(5);
      this.frame[this.len++] = op.BININT;
      this.frame.writeInt32LE(v, this.len);
      this.len += 4;
    } else this.saveBigInt(BigInt(v));
  }

  private saveBigInt(v: bigint): void {
    if (v >= -(2n ** 31n) && v < 2n ** 31n) return this.saveInt(Number(v));
    const bytes = encodeLong(v);
    this.ensure(bytes.length + 5);
    if (bytes.length < 256) {
      this.frame[this.len++] = op.LONG1;
      this.frame[this.len++] = bytes.length;
    } else {
      this.frame[this.len++] = op.LONG4;
      this.frame.writeInt32LE(bytes.length, this.len);
      this.len += 4;
    }
    this.frame.set(bytes, this.len);
    this.len += bytes.length;
  }

  private saveFloat(v: number): void {
    this.ensure(9);
    this.frame[this.len++] = op.BINFLOAT;
    this.frame.writeDoubleBE(v, this.len);
    this.len += 8;
  }
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** UTF-8 with lone surrogates encoded as themselves (Python's 'surrogatepass'). */
function encodeSurrogatePass(s: string): Buffer {
  if (s.isWellFormed()) return Buffer.from(s, "utf8");
  const parts: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i);
    if (c === undefined) break; // (never: i < s.length)
    if (c > 0xffff) i++;
    if (c < 0x80) parts.push(c);
    else if (c < 0x800) parts.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) parts.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else parts.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Buffer.from(parts);
}

/** Minimal little-endian two's complement bytes of a BigInt (as CPython's encode_long). */
function encodeLong(v: bigint): Uint8Array {
  if (v === 0n) return new Uint8Array(0);
  const out: number[] = [];
  let x = v;
  for (;;) {
    const last = Number(x & 0xffn);
    out.push(last);
    x >>= 8n;
    if ((x === 0n && (last & 0x80) === 0) || (x === -1n && (last & 0x80) !== 0)) break;
  }
  return Uint8Array.from(out);
}

/** Pickles one value into a byte buffer. */
export function dumpPickle(v: PyValue, options: PickleWriterOptions = {}): Buffer {
  const w = new PickleWriter(options);
  w.value(v);
  w.finish();
  return Buffer.concat(w.take());
}

/** Streams a top-level dict from batches of items into a pickle file (or stdout), atomically. */
export async function writePickleDict(
  target: string,
  batches:
    | AsyncIterable<readonly (readonly [PyValue, PyValue])[]>
    | Iterable<readonly (readonly [PyValue, PyValue])[]>,
  options: PickleWriterOptions & WriteOptions = {},
): Promise<number> {
  let n = 0;
  await writeAtomic(
    target,
    async (sink) => {
      n = await pickleDictTo(sink, batches, options);
    },
    options,
  );
  return n;
}

/** The streaming core of {@link writePickleDict}, for callers that own the sink (e.g. a tar entry). */
export async function pickleDictTo(
  sink: ByteSink,
  batches:
    | AsyncIterable<readonly (readonly [PyValue, PyValue])[]>
    | Iterable<readonly (readonly [PyValue, PyValue])[]>,
  options: PickleWriterOptions = {},
): Promise<number> {
  const w = new PickleWriter(options);
  let n = 0;
  w.beginDict();
  for await (const batch of batches) {
    w.dictItems(batch);
    n += batch.length;
    for (const c of w.take()) await sink.write(c);
  }
  w.endDict();
  w.finish();
  for (const c of w.take()) await sink.write(c);
  return n;
}
