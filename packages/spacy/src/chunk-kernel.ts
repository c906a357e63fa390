// The JavaScript side of the tokenizer's WebAssembly kernel (wasm/chunks.ts, compiled into
// chunks-wasm.ts): one instance per tokenizer, holding the text being tokenized as UTF-16 code
// units, its pieces and tokens, the chunk cache's two generations, the special cases' chunks and
// the lexicon's index. Growing its memory detaches every view of it, so views are taken afresh
// after any call that may allocate.
import { committedModule, type WasmMemory } from "@convkit/wasm";
import * as K from "./chunks-wasm.js";
import { unitsToString } from "./utf16.js";

export { MISS, T_LEXICON } from "./chunks-wasm.js";

interface ChunkExports {
  init(cacheCapacity: number, specialCapacity: number, lexiconCapacity: number): void;
  reserveText(n: number): number;
  reserveScratch(n: number): number;
  scan(n: number, cached: number): number;
  push(lex: number, start: number): void;
  spaceAfterLast(): void;
  isSpecial(a: number, b: number): number;
  addSpecial(a: number, b: number, n: number): void;
  rotate(): void;
  clearTable(t: number): void;
  get(t: number, units: number, a: number, b: number, h: number): number;
  intern(t: number, units: number, a: number, b: number, h: number, code: number): number;
  endsPeel(a: number, b: number, cached: number): number;
  pushCachedRange(a: number, b: number): number;
  pushRange(a: number, b: number, next: number): number;
  settleResolve(a: number, b: number, h: number, from: number, spaceAfter: number, k: number): number;
  hashOf(units: number, a: number, b: number): number;
  sizeOf(t: number): number;
}

const instantiate = committedModule<ChunkExports>(K.CHUNKS_WASM);

/** Node writes "utf16le" as a Uint16Array reads it only on a little-endian machine. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Tokens of a text: parallel arrays, `lex` indexing the tokenizer's lexicon. */
export interface TokenizedText {
  length: number;
  /** Lexicon entry of each token (its text, and a special case's NORM where one was set). */
  lex: Int32Array;
  /** UTF-16 offset of each token in the text. */
  start: Int32Array;
  /** 1 where a single space follows the token (spaCy's `whitespace_`). */
  spacy: Uint8Array;
}

/** A tokenizer's kernel instance. */
export class ChunkKernel {
  readonly fn: ChunkExports;
  private readonly memory: WasmMemory;
  private i32 = new Int32Array(0);
  private u16 = new Uint16Array(0);
  private bytes = Buffer.alloc(0);

  /**
   * `cacheCapacity`: chunks per generation of the chunk cache; `lexiconCapacity`: the lexicon's
   * index before it first grows (it doubles as needed).
   */
  constructor(cacheCapacity: number, lexiconCapacity = 1 << 12) {
    const { exports, memory } = instantiate();
    this.fn = exports;
    this.memory = memory;
    exports.init(cacheCapacity, 16, lexiconCapacity);
  }

  /** Views of the memory as it is now. */
  private views(): void {
    // Growing the memory detaches its old buffer, and the views on it go empty: a length read
    // here, instead of a call into the engine for `memory.buffer` at every header read.
    if (this.i32.length !== 0) return;
    const buffer = this.memory.buffer;
    this.i32 = new Int32Array(buffer);
    this.u16 = new Uint16Array(buffer);
    this.bytes = Buffer.from(buffer);
  }

  private header(slot: number): number {
    this.views();
    return this.i32[slot]!;
  }

  /** Copies `s`'s code units to `at` (a byte address with room for them). */
  private write(s: string, at: number): void {
    this.views();
    // Node's native UTF-16 copy for a text: a few milliseconds for the benchmark's 28 MB, a loop
    // ten times that; a short string (a special case's, a word looked up whole) by the loop, as
    // Buffer.write costs microseconds a call in its checks.
    if (LITTLE_ENDIAN && s.length > 64) this.bytes.write(s, at, "utf16le");
    else for (let i = 0; i < s.length; i++) this.u16[(at >> 1) + i] = s.charCodeAt(i);
  }

  /** Makes `text` the text being tokenized (no tokens yet). */
  loadText(text: string): void {
    this.write(text, this.fn.reserveText(text.length));
  }

  /** Byte address of the text's code units. */
  get textAt(): number {
    return this.header(K.H_UNITS_AT);
  }

  /** Puts `s` in the scratch region (for a string looked up whole); its byte address. */
  loadScratch(s: string): number {
    const at = this.fn.reserveScratch(s.length);
    this.write(s, at);
    return at;
  }

  /** Code units [a, b) at byte address `at` as a new string. */
  stringAt(at: number, a: number, b: number): string {
    this.views();
    return unitsToString(this.u16, (at >> 1) + a, (at >> 1) + b);
  }

  /** Pieces of the text after `scan`. */
  get pieces(): number {
    return this.header(K.H_PIECES);
  }

  /** Piece `k`: start, end (`~end` when a space follows it), hash. */
  piece(k: number, out: Int32Array): void {
    const at = (this.header(K.H_PIECES_AT) >> 2) + k * K.PIECE_INTS;
    out[0] = this.i32[at]!;
    out[1] = this.i32[at + 1]!;
    out[2] = this.i32[at + 2]!;
  }

  /** Tokens pushed so far. */
  get tokenCount(): number {
    return this.header(K.H_TOKENS);
  }

  /** The tokens pushed, as views of the memory (valid until the next call that may allocate). */
  tokens(): TokenizedText {
    this.views();
    const length = this.i32[K.H_TOKENS]!;
    const buffer = this.i32.buffer;
    return {
      length,
      lex: new Int32Array(buffer, this.i32[K.H_LEX_AT]!, length),
      start: new Int32Array(buffer, this.i32[K.H_START_AT]!, length),
      spacy: new Uint8Array(buffer, this.i32[K.H_SPACY_AT]!, length),
    };
  }

  /** Empties the chunk cache's two generations and the special cases' chunks (the lexicon is apart). */
  clearChunks(): void {
    for (const t of [K.T_FIRST, K.T_SECOND, K.T_SPECIAL]) this.fn.clearTable(t);
  }

  /** Adds a special case: `chunk`, whose tokens are the lexicon entries `ids` of UTF-16 lengths `lengths`. */
  addSpecial(chunk: string, ids: Int32Array, lengths: Int32Array): void {
    this.loadScratch(chunk);
    let at = 0;
    for (let k = 0; k < ids.length; k++) {
      this.fn.push(ids[k]!, at);
      at += lengths[ids[k]!]!;
    }
    this.fn.addSpecial(0, chunk.length, ids.length);
  }
}
