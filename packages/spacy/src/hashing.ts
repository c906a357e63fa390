// The two hashes a spaCy pipeline depends on, bit for bit: spaCy's string ids (MurmurHash64A of the
// UTF-8 bytes, seed 1) and thinc's HashEmbed keys (MurmurHash3_x86_128 of a uint64 id). 64-bit
// values travel as two uint32 halves: per-lexeme work, but a collection has millions of lexemes.

/** A uint64 as two uint32 halves. */
export interface U64 {
  hi: number;
  lo: number;
}

const M_HI = 0xc6a4a793;
const M_LO = 0x5bd1e995;

let mulHi = 0;
let mulLo = 0;

/** (ah·2³² + al)·(bh·2³² + bl) mod 2⁶⁴ into mulHi/mulLo. */
function mul64(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const mid = (p00 >>> 16) + a1 * b0;
  const mid2 = (mid & 0xffff) + a0 * b1;
  const carry = Math.floor(mid / 65536) + Math.floor(mid2 / 65536) + a1 * b1;
  mulLo = (((mid2 & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  mulHi = (carry + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** x ^= x >>> 47, in halves. */
function xorShift47(hi: number, lo: number): void {
  mulLo = (lo ^ (hi >>> 15)) >>> 0;
  mulHi = hi >>> 0;
}

const utf8 = new TextEncoder();
let scratch = new Uint8Array(256);

/** spaCy's `hash_string`: MurmurHash64A of the string's UTF-8 bytes with seed 1. */
export function hashString(s: string): U64 {
  if (scratch.length < s.length * 3) scratch = new Uint8Array(s.length * 3);
  const len = utf8.encodeInto(s, scratch).written;
  return murmurHash64A(scratch, len, 1);
}

/** MurmurHash64A (Austin Appleby) of `bytes[0..len)`, the 64-bit hash spaCy's string store uses. */
function murmurHash64A(bytes: Uint8Array, len: number, seed: number): U64 {
  // h = seed ^ (len * m)
  mul64(0, len, M_HI, M_LO);
  let hHi = mulHi >>> 0;
  let hLo = (mulLo ^ seed) >>> 0;
  const blocks = len >>> 3;
  for (let b = 0; b < blocks; b++) {
    const o = b * 8;
    const kLo = (bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24)) >>> 0;
    const kHi = (bytes[o + 4]! | (bytes[o + 5]! << 8) | (bytes[o + 6]! << 16) | (bytes[o + 7]! << 24)) >>> 0;
    mul64(kHi, kLo, M_HI, M_LO);
    xorShift47(mulHi, mulLo);
    mul64(mulHi, mulLo, M_HI, M_LO);
    hHi = (hHi ^ mulHi) >>> 0;
    hLo = (hLo ^ mulLo) >>> 0;
    mul64(hHi, hLo, M_HI, M_LO);
    hHi = mulHi;
    hLo = mulLo;
  }
  const rest = len & 7;
  if (rest > 0) {
    const o = blocks * 8;
    let tLo = 0;
    let tHi = 0;
    for (let j = rest - 1; j >= 0; j--) {
      if (j >= 4) tHi |= bytes[o + j]! << (8 * (j - 4));
      else tLo |= bytes[o + j]! << (8 * j);
    }
    hHi = (hHi ^ tHi) >>> 0;
    hLo = (hLo ^ tLo) >>> 0;
    mul64(hHi, hLo, M_HI, M_LO);
    hHi = mulHi;
    hLo = mulLo;
  }
  xorShift47(hHi, hLo);
  mul64(mulHi, mulLo, M_HI, M_LO);
  xorShift47(mulHi, mulLo);
  return { hi: mulHi >>> 0, lo: mulLo >>> 0 };
}

/** (hi, lo) += (bh, bl) mod 2⁶⁴ into mulHi/mulLo. */
function add64(hi: number, lo: number, bh: number, bl: number): void {
  const l = lo + bl;
  mulLo = l >>> 0;
  mulHi = (hi + bh + (l > 0xffffffff ? 1 : 0)) >>> 0;
}

/** x ^= x >>> 33, then x *= (ch, cl), in halves. */
function xorShift33Mul(hi: number, lo: number, ch: number, cl: number): void {
  mul64(hi, (lo ^ (hi >>> 1)) >>> 0, ch, cl);
}

/** MurmurHash3's 64-bit finalizer. */
function fmix64(hi: number, lo: number): void {
  xorShift33Mul(hi, lo, 0xff51afd7, 0xed558ccd);
  xorShift33Mul(mulHi, mulLo, 0xc4ceb9fe, 0x1a85ec53);
  mulLo = (mulLo ^ (mulHi >>> 1)) >>> 0;
}

/**
 * thinc's `NumpyOps.hash` for one id (its `MurmurHash3_x86_128_uint64`, which is MurmurHash3's
 * x64_128 specialized to one 8-byte key): four uint32 written into `out[at..at+4)`.
 */
export function hashId128(id: U64, seed: number, out: Uint32Array, at: number): void {
  mul64(id.hi, id.lo, 0x87c37b91, 0x114253d5);
  // rotl64(h1, 31)
  const rHi = ((mulHi << 31) | (mulLo >>> 1)) >>> 0;
  const rLo = ((mulLo << 31) | (mulHi >>> 1)) >>> 0;
  mul64(rHi, rLo, 0x4cf5ad43, 0x2745937f);
  let h1Hi = mulHi;
  let h1Lo = (mulLo ^ seed ^ 8) >>> 0;
  let h2Hi = 0;
  let h2Lo = (seed ^ 8) >>> 0;
  add64(h1Hi, h1Lo, h2Hi, h2Lo);
  h1Hi = mulHi;
  h1Lo = mulLo;
  add64(h2Hi, h2Lo, h1Hi, h1Lo);
  h2Hi = mulHi;
  h2Lo = mulLo;
  fmix64(h1Hi, h1Lo);
  h1Hi = mulHi;
  h1Lo = mulLo;
  fmix64(h2Hi, h2Lo);
  h2Hi = mulHi;
  h2Lo = mulLo;
  add64(h1Hi, h1Lo, h2Hi, h2Lo);
  h1Hi = mulHi;
  h1Lo = mulLo;
  add64(h2Hi, h2Lo, h1Hi, h1Lo);
  out[at] = h1Lo;
  out[at + 1] = h1Hi;
  out[at + 2] = mulLo;
  out[at + 3] = mulHi;
}

/** A uint64 as its decimal string (what spaCy prints for ids). */
export function u64ToString(v: U64): string {
  return ((BigInt(v.hi) << 32n) | BigInt(v.lo)).toString();
}
