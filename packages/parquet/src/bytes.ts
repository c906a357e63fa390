// Growable buffers the encoder fills: typed arrays (levels, row starts, dictionary indexes) and
// bytes (page bodies, PLAIN values), reused from row group to row group. One grown past KEEP_BYTES
// (a row group with one huge value) is let go at its reset rather than held for the rest of the file.

/** The most a buffer keeps across a reset. */
const KEEP_BYTES = 32 << 20;

type Typed = Uint8Array | Uint32Array | Int32Array;

/** A growable typed array of numbers (`a` up to `len` holds them). */
export class Growing<T extends Typed> {
  a: T;
  len = 0;
  constructor(
    private readonly make: (n: number) => T,
    private readonly initial = 1024,
  ) {
    this.a = make(initial);
  }
  reset(): void {
    this.len = 0;
    if (this.a.byteLength > KEEP_BYTES) this.a = this.make(this.initial);
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

/** A growable byte buffer (a Buffer, for its number and UTF-8 writers). */
export class Bytes extends Growing<Buffer> {
  constructor() {
    super((n) => Buffer.allocUnsafe(n), 1 << 16);
  }
  /** The bytes so far are `buf` up to `len`. */
  get buf(): Buffer {
    return this.a;
  }
  u8(v: number): void {
    this.push(v);
  }
  u32(v: number): void {
    this.ensure(4);
    this.a.writeUInt32LE(v >>> 0, this.len);
    this.len += 4;
  }
  varint(v: number): void {
    this.ensure(5);
    while (v > 0x7f) {
      this.a[this.len++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.a[this.len++] = v;
  }
  /** A safe integer as int64 little-endian, without a BigInt. */
  i64(v: number): void {
    this.ensure(8);
    const lo = v >>> 0;
    const hi = Math.floor((v - lo) / 0x1_0000_0000);
    this.a.writeUInt32LE(lo, this.len);
    this.a.writeInt32LE(hi | 0, this.len + 4);
    this.len += 8;
  }
  f64(v: number): void {
    this.ensure(8);
    this.a.writeDoubleLE(v, this.len);
    this.len += 8;
  }
  /** A string as PLAIN byte array: 4-byte length, UTF-8 bytes. */
  str(s: string): void {
    this.ensure(4 + s.length * 3);
    const n = this.a.write(s, this.len + 4, "utf8");
    this.a.writeUInt32LE(n, this.len);
    this.len += 4 + n;
  }
  view(): Uint8Array {
    return this.a.subarray(0, this.len);
  }
}
