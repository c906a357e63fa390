// Growable buffers the encoder fills: bytes (page bodies, PLAIN values) and typed arrays (levels,
// row starts, dictionary indexes), reused from row group to row group. One grown past KEEP_BYTES (a
// row group with one huge value) is let go at its reset rather than held for the rest of the file.

/** The most a buffer keeps across a reset. */
const KEEP_BYTES = 32 << 20;

/** A growable byte buffer. */
export class Bytes {
  buf = Buffer.allocUnsafe(1 << 16);
  len = 0;
  reset(): void {
    this.len = 0;
    if (this.buf.length > KEEP_BYTES) this.buf = Buffer.allocUnsafe(1 << 16);
  }
  ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.len++] = v;
  }
  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.len);
    this.len += 4;
  }
  varint(v: number): void {
    this.ensure(5);
    while (v > 0x7f) {
      this.buf[this.len++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.len++] = v;
  }
  /** A safe integer as int64 little-endian, without a BigInt. */
  i64(v: number): void {
    this.ensure(8);
    const lo = v >>> 0;
    const hi = Math.floor((v - lo) / 0x1_0000_0000);
    this.buf.writeUInt32LE(lo, this.len);
    this.buf.writeInt32LE(hi | 0, this.len + 4);
    this.len += 8;
  }
  f64(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.len);
    this.len += 8;
  }
  /** A string as PLAIN byte array: 4-byte length, UTF-8 bytes. */
  str(s: string): void {
    this.ensure(4 + s.length * 3);
    const n = this.buf.write(s, this.len + 4, "utf8");
    this.buf.writeUInt32LE(n, this.len);
    this.len += 4 + n;
  }
  view(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

type Typed = Uint8Array | Uint32Array | Int32Array;

/** A growable typed array of numbers (`a` up to `len` holds them). */
export class Growing<T extends Typed> {
  a: T;
  len = 0;
  constructor(private readonly make: (n: number) => T) {
    this.a = make(1024);
  }
  reset(): void {
    this.len = 0;
    if (this.a.byteLength > KEEP_BYTES) this.a = this.make(1024);
  }
  ensure(n: number): void {
    if (this.len + n <= this.a.length) return;
    let size = this.a.length * 2;
    while (size < this.len + n) size *= 2;
    const next = this.make(size);
    next.set(this.a.subarray(0, this.len));
    this.a = next;
  }
  push(v: number): void {
    this.ensure(1);
    this.a[this.len++] = v;
  }
  /** Number `i` (below `len`: callers index what they pushed). */
  get(i: number): number {
    return this.a[i] as number;
  }
  /** Appends `values`. */
  append(values: ArrayLike<number>): void {
    this.ensure(values.length);
    this.a.set(values, this.len);
    this.len += values.length;
  }
}
