// Building byte output in place: a reused growable buffer that text and numbers are written into.

const START = 1 << 20;
/** Larger buffers (grown by a big batch) are let go rather than kept for the rest of a run. */
const KEEP = 1 << 22;

/** A growable byte buffer that output is written into without building strings (reused across batches). */
export class ByteBuilder {
  // allocUnsafeSlow: every buffer has an ArrayBuffer of its own (never Node's shared pool), so
  // one that is handed over can be transferred.
  buf = Buffer.allocUnsafeSlow(START);
  len = 0;

  private grow(n: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  bytes(b: Uint8Array): void {
    if (this.len + b.length > this.buf.length) this.grow(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** A string as UTF-8 (a lone surrogate as U+FFFD, as `Buffer.from` does). */
  string(s: string): void {
    // At most 3 bytes per UTF-16 unit.
    if (this.len + 3 * s.length > this.buf.length) this.grow(3 * s.length);
    this.len += this.buf.write(s, this.len);
  }

  /** A non-negative integer in decimal. */
  uint(v: number): void {
    if (this.len + 16 > this.buf.length) this.grow(16);
    let digits = 1;
    for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
    let p = this.len + digits;
    this.len = p;
    let x = v;
    do {
      this.buf[--p] = 48 + (x % 10);
      x = Math.floor(x / 10);
    } while (x > 0);
  }

  /** Forgets what was written (what a failed batch left behind). */
  clear(): void {
    this.len = 0;
  }

  /** The bytes written so far (a copy the caller owns, in an ArrayBuffer of its own), and a reset. */
  take(): Buffer {
    const out = Buffer.allocUnsafeSlow(this.len);
    this.buf.copy(out, 0, 0, this.len);
    this.len = 0;
    // A big task grew the buffer: let it go rather than hold it for the rest of the run.
    if (this.buf.length > KEEP) this.buf = Buffer.allocUnsafeSlow(START);
    return out;
  }

  /**
   * The bytes written so far, in the builder's own buffer (no copy: the caller now owns its
   * ArrayBuffer), and a reset. The builder goes on in `next` (a buffer handed back, whose
   * contents are overwritten), else in a new one.
   */
  handOver(next?: ArrayBuffer): Buffer {
    const out = this.buf.subarray(0, this.len);
    this.buf =
      next !== undefined && next.byteLength >= START && next.byteLength <= KEEP
        ? Buffer.from(next)
        : Buffer.allocUnsafeSlow(START);
    this.len = 0;
    return out;
  }
}
