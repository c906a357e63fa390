// The WebAssembly side of DictTreeScanner's hot loop (wasm/dict-items.ts): one instance per scan,
// its memory laid out as [state block | the bytes being scanned | the memo's string ids].
// The slots and sizes shared with the kernel (wasm/shared.ts, copied into the generated module).
import { committedModule, growMemory, type WasmMemory } from "@convkit/wasm";
import * as kernel from "./dict-items-wasm.js";

/** How many wanted key ids the state block holds; more make every item go to the caller. */
const MAX_WANTED = kernel.STATE_BYTES / 4 - kernel.SLOT_WANTED_IDS;

type ItemsFn = (st: number, buf: number, p: number, end: number, memo: number, memoCap: number) => number;

/** An instance of the kernel (compiled once per thread). */
const instantiate = committedModule<{ items: ItemsFn }>(kernel.DICT_ITEMS_WASM);

/**
 * The kernel with its memory. The memo lives here (the scanner reads and writes it through
 * {@link memo}); the bytes being scanned are copied in by {@link load}. Growing either
 * detaches every view: take {@link memo} again after `load` and `growMemo`.
 */
export class DictItemsKernel {
  private readonly memory: WasmMemory;
  private readonly itemsFn: ItemsFn;
  /** The state block's i32 slots (SLOT_* of wasm/shared.ts); read through the getters below. */
  private state!: Int32Array;
  memo!: Int32Array;
  private bytes!: Uint8Array;
  private bufCap = 0;
  private memoPtr = kernel.STATE_BYTES;
  private memoCap = 0;
  /** The buffer whose bytes are in memory now. */
  loaded: Uint8Array | undefined;

  constructor(memoCap: number) {
    const { exports, memory } = instantiate();
    this.memory = memory;
    this.itemsFn = exports.items;
    this.memoCap = memoCap;
    growMemory(this.memory, this.memoPtr + memoCap * 4);
    this.views();
    this.setWanted(undefined, 0);
  }

  private views(): void {
    const b = this.memory.buffer;
    this.bytes = new Uint8Array(b);
    this.state = new Int32Array(b, 0, kernel.STATE_BYTES / 4);
    this.memo = new Int32Array(b, this.memoPtr, this.memoCap);
  }

  /** Copies `buf` in (the memo moves up when the bytes need more room). */
  load(buf: Uint8Array): void {
    if (buf.length > this.bufCap) {
      // A multiple of 8: the memo after the bytes is an Int32Array, which must be aligned.
      const bufCap = Math.ceil(Math.max(buf.length, 2 * this.bufCap, 1 << 20) / 8) * 8;
      const memoPtr = kernel.STATE_BYTES + bufCap;
      growMemory(this.memory, memoPtr + this.memoCap * 4);
      const bytes = new Uint8Array(this.memory.buffer);
      bytes.copyWithin(memoPtr, this.memoPtr, this.memoPtr + this.memoCap * 4);
      this.bufCap = bufCap;
      this.memoPtr = memoPtr;
      this.views();
    }
    this.bytes.set(buf, kernel.STATE_BYTES);
    this.loaded = buf;
  }

  /** Room for memo indexes below `n` (new entries 0). */
  growMemo(n: number): void {
    const cap = Math.max(n, 2 * this.memoCap);
    growMemory(this.memory, this.memoPtr + cap * 4);
    const old = this.memoCap;
    this.memoCap = cap;
    this.views();
    this.memo.fill(0, old);
  }

  /** The key ids an item must have to be reported; undefined: every item goes to the caller. */
  setWanted(ids: Int32Array | undefined, n: number): void {
    const st = this.state;
    if (ids === undefined || n > MAX_WANTED) {
      st[kernel.SLOT_WANTED_COUNT] = -1;
      return;
    }
    for (let i = 0; i < n; i++) st[kernel.SLOT_WANTED_IDS + i] = ids[i]!;
    st[kernel.SLOT_WANTED_COUNT] = n;
  }

  /**
   * Runs the kernel over the loaded bytes from `p` (see wasm/dict-items.ts): the position where
   * it stopped. Then {@link memoLength} is the memo's length, and {@link report} says whether it
   * stopped on an item to report (its ids and float offsets in the getters below).
   */
  items(p: number, end: number, memoLen: number): number {
    this.state[kernel.SLOT_MEMO_LEN] = memoLen;
    return this.itemsFn(0, kernel.STATE_BYTES, p, end, this.memoPtr, this.memoCap);
  }

  get memoLength(): number {
    return this.state[kernel.SLOT_MEMO_LEN]!;
  }

  get report(): boolean {
    return this.state[kernel.SLOT_REPORT] === 1;
  }

  /** The reported item's key: a string id. */
  get keyId(): number {
    return this.state[kernel.SLOT_KEY_ID]!;
  }

  get name1Id(): number {
    return this.state[kernel.SLOT_NAME1_ID]!;
  }

  get name2Id(): number {
    return this.state[kernel.SLOT_NAME2_ID]!;
  }

  /** Where the reported item's first float (8 bytes, big-endian) is in the loaded bytes. */
  get value1At(): number {
    return this.state[kernel.SLOT_VALUE1_AT]!;
  }

  get value2At(): number {
    return this.state[kernel.SLOT_VALUE2_AT]!;
  }
}
