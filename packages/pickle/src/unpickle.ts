// Reading pickles without executing anything: a resumable opcode machine fed chunk by chunk.
import { type ByteSource, InputError, openPayload } from "@convkit/io";
import { Nesting } from "./guards.js";
import { CUT, Op, readOp } from "./opcode-reader.js";
import * as op from "./opcodes.js";
import {
  construct,
  DataConstructor,
  decodeLong,
  decodeSurrogatePass,
  globalName,
  SAFE_GLOBALS,
  textValue,
  typeName,
} from "./unpickle-values.js";
import { PyFloat, PyTuple, type PyValue } from "./values.js";

/** Options of the pickle reader. */
export interface UnpickleOptions {
  /** Return integral floats (`0.0`) as {@link PyFloat} so that writing them back keeps them floats. */
  keepFloats?: boolean;
}

type Utf8Buffer = Buffer & { utf8Slice(start: number, end: number): string };

const NEED_MORE = Symbol("need more");

/** Incremental unpickler: `feed` bytes, `finish` when the input ends. */
export class Unpickler {
  private buf: Utf8Buffer = Buffer.alloc(0) as Utf8Buffer;
  private pos = 0;
  private base = 0; // absolute offset of buf[0]
  private need = 0; // bytes wanted before the pending opcode can run
  private parked: Buffer[] = [];
  private parkedSize = 0;
  private readonly stack: unknown[] = [];
  /** How deep the stack's containers are, and which are shared. */
  private readonly nesting: Nesting;
  private marks: number[] = [];
  private memo: unknown[] = [];
  private memoSize = 0;
  private frameEnd = -1;
  private stopped = false;
  private value: PyValue = null;
  private proto = 0;
  private readonly op = new Op();

  constructor(
    private readonly name: string,
    private readonly options: UnpickleOptions = {},
  ) {
    this.nesting = new Nesting(this.stack, name);
  }

  /** Hands the next chunk to the machine and runs every opcode it completes. */
  feed(chunk: Uint8Array): void {
    if (this.stopped) {
      if (chunk.length > 0) this.fail(this.base + this.pos, "end of data after STOP", "more bytes");
      return;
    }
    const c = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    if (this.need > 0) {
      this.parked.push(c);
      this.parkedSize += c.length;
      if (this.buf.length - this.pos + this.parkedSize < this.need) return;
    } else {
      this.parked.push(c);
      this.parkedSize += c.length;
    }
    const rest = this.buf.subarray(this.pos);
    this.base += this.pos;
    this.buf = (
      rest.length === 0 && this.parked.length === 1 ? this.parked[0]! : Buffer.concat([rest, ...this.parked])
    ) as Utf8Buffer;
    this.pos = 0;
    this.parked = [];
    this.parkedSize = 0;
    this.need = 0;
    this.run();
  }

  /** The unpickled value once the input has ended; throws if the pickle is incomplete. */
  finish(): PyValue {
    if (!this.stopped) {
      const at = this.base + this.buf.length + this.parkedSize;
      if (this.frameEnd > at)
        this.fail(at, `the rest of a frame (${this.frameEnd - at} more bytes)`, "end of file");
      this.fail(at, "more pickle opcodes up to STOP", "end of file");
    }
    this.nesting.check(this.value, this.base + this.buf.length);
    return this.value;
  }

  private fail(offset: number, expected: string, found: string): never {
    throw new InputError(this.name, { offset }, expected, found);
  }

  private popMark(at: number): unknown[] {
    const m = this.marks.pop();
    if (m === undefined) this.fail(this.base + at, "a MARK before this opcode", "none");
    const items = this.stack.slice(m);
    this.stack.length = m;
    return items;
  }

  private top(at: number): unknown {
    if (this.stack.length === 0) this.fail(this.base + at, "a value on the stack", "an empty stack");
    return this.stack[this.stack.length - 1];
  }

  private pop(at: number): unknown {
    if (this.stack.length === 0) this.fail(this.base + at, "a value on the stack", "an empty stack");
    return this.stack.pop();
  }

  private memoGet(at: number, idx: number): void {
    const v = idx < this.memo.length ? this.memo[idx] : undefined;
    if (v === undefined) this.fail(this.base + at, `memo entry ${idx}`, "none");
    this.stack.push(v);
    this.nesting.again(v, this.base + at);
  }

  /** The mark on top (where a MARK-closed opcode's items start), or the stack's end when none. */
  private markTop(): number {
    return this.marks.at(-1) ?? this.stack.length;
  }

  private memoPut(idx: number, v: unknown): void {
    const memo = this.memo;
    // Never read past the end: out-of-bounds reads take V8's slow path through the prototype chain.
    if (idx >= memo.length || memo[idx] === undefined) this.memoSize++;
    memo[idx] = v;
  }

  private str(start: number, end: number): string {
    const buf = this.buf;
    const s = buf.utf8Slice(start, end);
    // Python pickles str with 'surrogatepass': lone surrogates arrive as ED A0..BF xx.
    if (s.indexOf("\uFFFD") >= 0)
      return decodeSurrogatePass(buf.subarray(start, end), this.name, this.base + start);
    return s;
  }

  private float(v: number): number | PyFloat {
    return this.options.keepFloats && Number.isInteger(v) ? new PyFloat(v) : v;
  }

  private run(): void {
    const buf = this.buf;
    const end = buf.length;
    const stack = this.stack;
    const memo = this.memo;
    const nesting = this.nesting;
    const o = this.op;
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    let pos = this.pos;
    let start = pos;
    try {
      while (pos < end) {
        start = pos;
        if (readOp(buf, dv, pos, end, this.memoSize, o) === CUT) {
          this.need = o.need;
          throw NEED_MORE;
        }
        pos = o.next;
        const code = o.code;
        switch (code) {
          case op.BINUNICODE:
          case op.SHORT_BINUNICODE:
          case op.BINUNICODE8:
            stack.push(this.str(o.data, o.data + o.arg));
            break;
          case op.BINFLOAT:
            stack.push(this.options.keepFloats ? this.float(o.float) : o.float);
            break;
          case op.BINGET:
          case op.LONG_BINGET: {
            const idx = o.arg;
            const v = idx < memo.length ? memo[idx] : undefined;
            if (v === undefined) this.memoGet(start, idx);
            else {
              stack.push(v);
              if (typeof v === "object") nesting.again(v, this.base + start);
            }
            break;
          }
          case op.BINPUT:
          case op.LONG_BINPUT:
          case op.MEMOIZE:
            this.memoPut(o.arg, this.top(start));
            break;
          case op.EMPTY_DICT:
            nesting.empty();
            stack.push(new Map());
            break;
          case op.EMPTY_LIST:
            nesting.empty();
            stack.push([]);
            break;
          case op.EMPTY_TUPLE:
            nesting.empty();
            stack.push(new PyTuple([]));
            break;
          case op.MARK:
            this.marks.push(stack.length);
            break;
          case op.SETITEMS: {
            const m = this.marks.pop();
            if (m === undefined || m === 0)
              this.fail(this.base + start, "a dict and a MARK before SETITEMS", "none");
            const d = stack[m - 1];
            const n = stack.length;
            if ((n - m) % 2 !== 0)
              this.fail(this.base + start, "key/value pairs for SETITEMS", `${n - m} items`);
            if (!(d instanceof Map)) this.fail(this.base + start, "a dict under SETITEMS", typeName(d));
            nesting.nest(m - 1, nesting.holding(m, n), this.base + start, true);
            for (let i = m; i < n; i += 2) d.set(stack[i], stack[i + 1]);
            stack.length = m;
            break;
          }
          case op.SETITEM: {
            const held = nesting.holding(stack.length - 2, stack.length);
            const v = this.pop(start);
            const k = this.pop(start);
            const d = this.top(start);
            if (!(d instanceof Map)) this.fail(this.base + start, "a dict under SETITEM", typeName(d));
            nesting.nest(stack.length - 1, held, this.base + start, true);
            d.set(k, v);
            break;
          }
          case op.APPENDS: {
            const held = nesting.holding(this.markTop(), stack.length);
            const items = this.popMark(start);
            const l = this.top(start);
            if (l instanceof Set) for (const x of items) l.add(x);
            else if (Array.isArray(l)) for (const x of items) l.push(x);
            else this.fail(this.base + start, "a list under APPENDS", typeName(l));
            nesting.nest(stack.length - 1, held, this.base + start, true);
            break;
          }
          case op.APPEND: {
            const held = nesting.holding(stack.length - 1, stack.length);
            const v = this.pop(start);
            const l = this.top(start);
            if (!Array.isArray(l)) this.fail(this.base + start, "a list under APPEND", typeName(l));
            nesting.nest(stack.length - 1, held, this.base + start, true);
            l.push(v);
            break;
          }
          case op.BININT1:
          case op.BININT2:
          case op.BININT:
            stack.push(o.arg);
            break;
          case op.LONG1:
          case op.LONG4:
            if (o.arg < 0) this.fail(this.base + start, "a non-negative LONG4 length", `${o.arg}`);
            stack.push(decodeLong(buf, o.data, o.arg));
            break;
          case op.NONE:
            stack.push(null);
            break;
          case op.NEWTRUE:
            stack.push(true);
            break;
          case op.NEWFALSE:
            stack.push(false);
            break;
          case op.TUPLE1: {
            const held = nesting.holding(stack.length - 1, stack.length);
            stack.push(new PyTuple([this.pop(start) as PyValue]));
            nesting.nest(stack.length - 1, held, this.base + start, false);
            break;
          }
          case op.TUPLE2: {
            const held = nesting.holding(stack.length - 2, stack.length);
            const b = this.pop(start);
            const a = this.pop(start);
            stack.push(new PyTuple([a, b] as PyValue[]));
            nesting.nest(stack.length - 1, held, this.base + start, false);
            break;
          }
          case op.TUPLE3: {
            const held = nesting.holding(stack.length - 3, stack.length);
            const c = this.pop(start);
            const b = this.pop(start);
            const a = this.pop(start);
            stack.push(new PyTuple([a, b, c] as PyValue[]));
            nesting.nest(stack.length - 1, held, this.base + start, false);
            break;
          }
          case op.TUPLE:
          case op.LIST:
          case op.DICT:
          case op.FROZENSET: {
            const held = nesting.holding(this.markTop(), stack.length);
            const items = this.popMark(start);
            if (code === op.TUPLE) stack.push(new PyTuple(items as PyValue[]));
            else if (code === op.LIST) stack.push(items);
            else if (code === op.FROZENSET) stack.push(new Set(items));
            else {
              const d = new Map();
              for (let i = 0; i + 1 < items.length; i += 2) d.set(items[i], items[i + 1]);
              stack.push(d);
            }
            nesting.nest(stack.length - 1, held, this.base + start, false);
            break;
          }
          case op.EMPTY_SET:
            nesting.empty();
            stack.push(new Set());
            break;
          case op.ADDITEMS: {
            const held = nesting.holding(this.markTop(), stack.length);
            const items = this.popMark(start);
            const s = this.top(start);
            if (!(s instanceof Set)) this.fail(this.base + start, "a set under ADDITEMS", typeName(s));
            for (const x of items) s.add(x);
            nesting.nest(stack.length - 1, held, this.base + start, true);
            break;
          }
          case op.SHORT_BINBYTES:
          case op.SHORT_BINSTRING:
          case op.BINBYTES:
          case op.BINSTRING:
          case op.BINBYTES8:
          case op.BYTEARRAY8: {
            if (o.arg < 0) this.fail(this.base + start, "a non-negative BINSTRING length", `${o.arg}`);
            const bytes = buf.subarray(o.data, o.data + o.arg);
            stack.push(
              code === op.SHORT_BINSTRING || code === op.BINSTRING
                ? bytes.toString("latin1")
                : Uint8Array.prototype.slice.call(bytes),
            );
            break;
          }
          case op.FRAME:
            this.frameEnd = this.base + pos + o.arg;
            break;
          case op.PROTO:
            this.proto = o.arg;
            if (this.proto > 5)
              this.fail(this.base + start, "pickle protocol 0 to 5", `protocol ${this.proto}`);
            break;
          case op.STOP:
            this.value = this.pop(start) as PyValue;
            this.stopped = true;
            pos = end;
            if (start + 1 < end) this.fail(this.base + start + 1, "end of data after STOP", "more bytes");
            break;
          case op.POP:
            if (
              stack.length > 0 &&
              this.marks.length > 0 &&
              this.marks[this.marks.length - 1] === stack.length
            ) {
              this.marks.pop();
            } else this.pop(start);
            break;
          case op.POP_MARK:
            this.popMark(start);
            break;
          case op.DUP: {
            const v = this.top(start);
            stack.push(v);
            nesting.again(v, this.base + start);
            break;
          }
          default: {
            // Text opcodes of protocol 0 carry a newline-terminated argument.
            if (TEXT_OPS.has(code)) {
              this.textOp(code, buf.toString("latin1", o.data, o.data + o.arg), start);
              break;
            }
            if (code === op.GLOBAL || code === op.STACK_GLOBAL) {
              const ctor = this.safeGlobal(code, buf, o);
              if (ctor) {
                stack.push(ctor);
                break;
              }
            }
            if (code === op.REDUCE) {
              const args = stack[stack.length - 1];
              const f = stack[stack.length - 2];
              if (f instanceof DataConstructor && args instanceof PyTuple) {
                const v = construct(f, args.items);
                if (v !== undefined) {
                  stack.length -= 2;
                  stack.push(v);
                  if (v instanceof Set) nesting.copied(v);
                  break;
                }
              }
            }
            const name = op.EXECUTING.get(code);
            if (name !== undefined) this.refuse(code, name, start, buf, o);
            this.fail(this.base + start, "a pickle opcode", `byte 0x${code.toString(16).padStart(2, "0")}`);
          }
        }
      }
      this.pos = pos;
    } catch (e) {
      if (e !== NEED_MORE) throw e;
      this.pos = start;
      if (this.need === 0) this.need = end - start + 1;
    }
  }

  private safeGlobal(code: number, buf: Buffer, o: Op): DataConstructor | undefined {
    const name = globalName(code, this.stack, buf, o);
    const ctor = name === undefined ? undefined : SAFE_GLOBALS.get(name);
    if (ctor && code === op.STACK_GLOBAL) this.stack.length -= 2;
    return ctor;
  }

  private refuse(code: number, name: string, start: number, buf: Buffer, o: Op): never {
    const what =
      code === op.GLOBAL || code === op.INST || code === op.STACK_GLOBAL
        ? globalName(code, this.stack, buf, o)
        : undefined;
    this.fail(
      this.base + start,
      "plain data (no class may be imported or called)",
      what === undefined ? name : `${name} ${what}`,
    );
  }

  /** Protocol 0's opcodes with a text argument. */
  private textOp(code: number, arg: string, start: number): void {
    if (code === op.GET) this.memoGet(start, Number.parseInt(arg, 10));
    else if (code === op.PUT) this.memoPut(Number.parseInt(arg, 10), this.top(start));
    else {
      const v = textValue(code, arg, (expected, found) => this.fail(this.base + start, expected, found));
      this.stack.push(typeof v === "number" && code === op.FLOAT ? this.float(v) : v);
    }
  }
}

const TEXT_OPS: ReadonlySet<number> = new Set([
  op.INT,
  op.LONG,
  op.FLOAT,
  op.STRING,
  op.UNICODE,
  op.GET,
  op.PUT,
]);

/** Unpickles a complete buffer. */
export function loadPickle(bytes: Uint8Array, name = "<pickle>", options: UnpickleOptions = {}): PyValue {
  const u = new Unpickler(name, options);
  u.feed(bytes);
  return u.finish();
}

/** Unpickles a byte stream chunk by chunk (input held only as far as an opcode needs). */
export async function readPickle(source: ByteSource, options: UnpickleOptions = {}): Promise<PyValue> {
  const u = new Unpickler(source.name, options);
  for await (const c of source.chunks) u.feed(c);
  return u.finish();
}

/** Unpickles a file that may be plain, gzip'd, inside a tar(.gz), or split in `.aa/.ab` parts. */
export async function readPickleFile(path: string, options: UnpickleOptions = {}): Promise<PyValue> {
  return readPickle(await openPayload(path), options);
}
