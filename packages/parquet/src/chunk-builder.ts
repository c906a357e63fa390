// One leaf's column chunk as its rows come: levels, row starts and values already encoded (PLAIN
// bytes, and dictionary indexes while a dictionary can still pay), so that a pending row group is
// held as bytes, not as the row objects handed in. Those die young instead of being promoted to
// V8's old generation and kept there until the group closes: on Node 24 and 26 that garbage, not
// anything the writer keeps, pushed writing 10 million passages past 300 MiB of RSS (issue 41).
import { Bytes, Growing } from "./bytes.js";
import type { Leaf } from "./levels.js";
import type { ScalarType } from "./schema.js";

/** pyarrow's dictionary page limit (1 MiB): past it, plain values. */
const DICTIONARY_PAGE_LIMIT = 1 << 20;
/** Mostly distinct values (ids): a dictionary cannot halve them; stop building it early. */
const DICTIONARY_PROBE = 4096;
/** Before any value: equal to none (the run check below compares against it). */
const NO_VALUE = Symbol("none");
/** A Map keys -0 and 0 as one (SameValueZero); a double column keeps them apart. */
const NEGATIVE_ZERO = Symbol("-0");

/** Bits needed for values up to `max`. */
export function bitWidth(max: number): number {
  return max === 0 ? 0 : 32 - Math.clz32(max);
}

/** Appends `v` as PLAIN to `out` (a boolean as one byte: pages pack them). */
function plainValue(out: Bytes, type: ScalarType, v: unknown): void {
  switch (type) {
    case "string":
      out.str(v as string);
      return;
    case "int64":
      out.i64(v as number);
      return;
    case "double":
      out.f64(v as number);
      return;
    case "boolean":
      out.u8(v ? 1 : 0);
      return;
  }
}

export class ChunkBuilder {
  readonly path: string[];
  readonly type: ScalarType;
  readonly maxDef: number;
  readonly maxRep: number;
  /** Levels per entry (empty when the max level is 0). */
  readonly def = new Growing((n) => new Uint8Array(n));
  readonly rep = new Growing((n) => new Uint8Array(n));
  /** Index of the first entry of each row, and entries at the end (rows + 1 numbers). */
  readonly rowStarts = new Growing((n) => new Uint32Array(n));
  /** Entries in all (values + nulls + empty lists). */
  entries = 0;
  /** Non-null values. */
  values = 0;
  /**
   * The values as PLAIN (4-byte length and UTF-8, or 8 bytes little-endian; a boolean one byte, 0
   * or 1), written once there is no dictionary: while there is one, values are only indexed (most
   * chunks of repeated values keep it), and their PLAIN bytes are copied from its keys if it is
   * given up.
   */
  readonly plain = new Bytes();
  /** Where each string value's PLAIN bytes end in `plain` (other values take 8 bytes each). */
  private readonly valueEnds = new Growing((n) => new Uint32Array(n));
  /** The dictionary: undefined once given up (or for booleans). */
  private ids: Map<unknown, number> | undefined;
  /** The dictionary's keys as PLAIN (the dictionary page's body), and where each string key ends. */
  readonly keysPlain = new Bytes();
  private readonly keyEnds = new Growing((n) => new Uint32Array(n));
  keyCount = 0;
  /** Each value's dictionary index (while there is a dictionary). */
  readonly indexes = new Growing((n) => new Int32Array(n));
  /** The values' PLAIN size (while there is a dictionary, `plain` is not written). */
  private plainBytes = 0;
  // Runs of one value (a topic's request, a context's history) skip the Map.
  private previous: unknown = NO_VALUE;
  private previousId = -1;

  constructor(leaf: Leaf) {
    this.path = leaf.path;
    this.type = leaf.type;
    this.maxDef = leaf.maxDef;
    this.maxRep = leaf.maxRep;
    this.reset();
  }

  /** Empties the chunk for the next row group (its buffers are kept). */
  reset(): void {
    this.def.reset();
    this.rep.reset();
    this.rowStarts.reset();
    this.rowStarts.push(0);
    this.entries = 0;
    this.values = 0;
    this.plain.reset();
    this.valueEnds.reset();
    this.ids = this.type === "boolean" ? undefined : new Map();
    this.keysPlain.reset();
    this.keyEnds.reset();
    this.keyCount = 0;
    this.indexes.reset();
    this.plainBytes = 0;
    this.previous = NO_VALUE;
    this.previousId = -1;
  }

  /** Appends the rows of `leaf` (the same leaf of the next rows). */
  append(leaf: Leaf): void {
    for (const start of leaf.rowStarts.subarray(1)) this.rowStarts.push(this.entries + start);
    this.entries += leaf.entries;
    if (this.maxDef > 0) this.def.append(leaf.def);
    if (this.maxRep > 0) this.rep.append(leaf.rep);
    const values = leaf.values;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      // Indexed, unless the dictionary is (or is given up just now, by this value) gone.
      const ids = this.ids;
      if (ids === undefined || !this.index(ids, v)) this.writePlain(v);
      this.values++;
    }
  }

  private writePlain(v: unknown): void {
    plainValue(this.plain, this.type, v);
    if (this.type === "string") this.valueEnds.push(this.plain.len);
  }

  /**
   * Dictionary-indexes value number `this.values` (pyarrow's page limit, and a probe of
   * distinctness); false when that gives the dictionary up (the value is then not indexed).
   */
  private index(ids: Map<unknown, number>, v: unknown): boolean {
    if (v === this.previous && v !== 0) {
      this.indexes.push(this.previousId);
      this.plainBytes += this.keySize(this.previousId);
      return true;
    }
    const key = v === 0 && Object.is(v, -0) ? NEGATIVE_ZERO : v;
    let id = ids.get(key);
    if (id === undefined) {
      id = this.keyCount++;
      ids.set(key, id);
      plainValue(this.keysPlain, this.type, v);
      if (this.type === "string") this.keyEnds.push(this.keysPlain.len);
      if (this.keysPlain.len > DICTIONARY_PAGE_LIMIT) {
        this.noDictionary();
        return false;
      }
    }
    this.indexes.push(id);
    this.plainBytes += this.keySize(id);
    this.previous = v;
    this.previousId = id;
    if (this.values === DICTIONARY_PROBE && this.keyCount > DICTIONARY_PROBE * 0.98) {
      this.noDictionary();
      return false;
    }
    return true;
  }

  /** Where string key `id`'s PLAIN bytes start in `keysPlain` (id = keyCount: the end). */
  private keyStart(id: number): number {
    return id === 0 ? 0 : this.keyEnds.get(id - 1);
  }

  private keySize(id: number): number {
    return this.type === "string" ? this.keyStart(id + 1) - this.keyStart(id) : 8;
  }

  /** Gives the dictionary up: the values indexed so far get their PLAIN bytes, copied from the keys. */
  private noDictionary(): void {
    const keys = this.keysPlain.buf;
    for (let k = 0; k < this.values; k++) {
      const id = this.indexes.get(k);
      if (this.type === "string") {
        const [from, to] = [this.keyStart(id), this.keyStart(id + 1)];
        this.plain.ensure(to - from);
        this.plain.len += keys.copy(this.plain.buf, this.plain.len, from, to);
        this.valueEnds.push(this.plain.len);
      } else {
        this.plain.ensure(8);
        this.plain.len += keys.copy(this.plain.buf, this.plain.len, 8 * id, 8 * id + 8);
      }
    }
    this.ids = undefined;
    this.keysPlain.reset();
    this.keyEnds.reset();
    this.keyCount = 0;
    this.indexes.reset();
  }

  /**
   * How the chunk is written: true with its dictionary (when that is smaller than its plain
   * values); false with PLAIN values, which it then has.
   */
  settle(): boolean {
    if (this.ids === undefined) return false;
    if (this.values > 0) {
      const indexBytes = (this.values * bitWidth(this.keyCount - 1)) / 8;
      if (this.keysPlain.len + indexBytes < this.plainBytes) return true;
    }
    this.noDictionary();
    return false;
  }

  /** Where value `k`'s PLAIN bytes start in `plain` (k = values: the end). */
  start(k: number): number {
    if (this.type !== "string") return this.type === "boolean" ? k : 8 * k;
    return k === 0 ? 0 : this.valueEnds.get(k - 1);
  }

  /** Value `k`'s PLAIN size, as a data page's byte budget counts it (a boolean as 8). */
  plainSize(k: number): number {
    return this.type === "string" ? this.start(k + 1) - this.start(k) : 8;
  }
}
