// AssemblyScript: the hot loop of DictTreeScanner (src/dict-tree.ts) as WebAssembly. An eval
// dict is a million leaf items of one fixed shape; read by JIT-compiled JavaScript, a cold process
// spends most of its scan warming the loop up, while WebAssembly runs at full speed from its first
// item. `node wasm/build.mjs` compiles this into src/dict-items-wasm.ts (committed; a test checks
// it is what this source and shared.ts compile to). It reads one item shape only; every other
// opcode is left to the scanner, which decodes through src/opcode-reader.ts.
import {
  ITEM_MAX,
  SLOT_KEY_ID,
  SLOT_MEMO_LEN,
  SLOT_NAME1_ID,
  SLOT_NAME2_ID,
  SLOT_REPORT,
  SLOT_VALUE1_AT,
  SLOT_VALUE2_AT,
  SLOT_WANTED_COUNT,
  SLOT_WANTED_IDS,
} from "./shared";

// Pickle opcodes (see src/opcodes.ts).
const MARK: u8 = 0x28;
const EMPTY_DICT: u8 = 0x7d;
const BINGET: u8 = 0x68;
const LONG_BINGET: u8 = 0x6a;
const BINPUT: u8 = 0x71;
const LONG_BINPUT: u8 = 0x72;
const MEMOIZE: u8 = 0x94;
const BINFLOAT: u8 = 0x47;
const SETITEMS: u8 = 0x75;

/** The address of state slot `slot`. */
function slot(st: usize, slot: i32): usize {
  return st + ((<usize>slot) << 2);
}

/** The memo index a BINGET or LONG_BINGET at `q` reads, or -1 for another opcode. */
function memoGet(q: usize): i64 {
  const c = load<u8>(q);
  if (c === BINGET) return load<u8>(q, 1);
  if (c === LONG_BINGET) return load<u32>(q, 1);
  return -1;
}

/** The size of the memo get at `q` (memoGet's opcodes). */
function getSize(q: usize): usize {
  return load<u8>(q) === BINGET ? 2 : 5;
}

/** The memo's id at index `i`, 0 when unset. */
function memoAt(memo: usize, memoLen: u32, i: i64): i32 {
  return i < <i64>memoLen ? load<i32>(memo + ((<usize>i) << 2)) : 0;
}

/**
 * Takes items `key EMPTY_DICT memo MARK get BINFLOAT get BINFLOAT SETITEMS` from buf + p while
 * they are whole before `end` and all their memo references are known strings, setting the memo
 * (ids at `memo`: 0 unset, -1 a dict, k > 0 a string) as the opcodes would. Stops after an item
 * whose key is wanted, or before an item it does not take (another shape, a new key string, a
 * memo index beyond `memoCap`); returns the position where it stopped.
 */
export function items(st: usize, buf: usize, p: u32, end: u32, memo: usize, memoCap: u32): u32 {
  let memoLen = load<u32>(slot(st, SLOT_MEMO_LEN));
  const want = load<i32>(slot(st, SLOT_WANTED_COUNT));
  store<i32>(slot(st, SLOT_REPORT), 0);
  while (p + <u32>ITEM_MAX <= end) {
    let q: usize = buf + p;
    const k = memoGet(q);
    if (k < 0) break;
    q += getSize(q);
    if (load<u8>(q) !== EMPTY_DICT) break;
    // The dict's memo put: BINPUT, LONG_BINPUT or MEMOIZE.
    const c = load<u8>(q, 1);
    let d: u32 = 0;
    if (c === LONG_BINPUT) {
      d = load<u32>(q, 2);
      q += 6;
    } else if (c === BINPUT) {
      d = load<u8>(q, 2);
      q += 3;
    } else if (c === MEMOIZE) {
      d = memoLen;
      q += 2;
    } else break;
    if (load<u8>(q) !== MARK) break;
    q += 1;
    const n1 = memoGet(q);
    if (n1 < 0) break;
    q += getSize(q);
    if (load<u8>(q) !== BINFLOAT) break;
    const xAt = <u32>(q + 1 - buf);
    q += 9;
    const n2 = memoGet(q);
    if (n2 < 0) break;
    q += getSize(q);
    if (load<u8>(q) !== BINFLOAT) break;
    const yAt = <u32>(q + 1 - buf);
    q += 9;
    if (load<u8>(q) !== SETITEMS) break;
    // The references are resolved before the item's own memo entry is set.
    if (n1 === <i64>d || n2 === <i64>d || d >= memoCap) break;
    const r1 = memoAt(memo, memoLen, n1);
    const r2 = memoAt(memo, memoLen, n2);
    const key = memoAt(memo, memoLen, k);
    if (r1 <= 0 || r2 <= 0 || key <= 0) break;
    store<i32>(memo + ((<usize>d) << 2), -1);
    if (d >= memoLen) memoLen = d + 1;
    p = <u32>(q + 1 - buf);
    let hit = want < 0;
    for (let i = 0; i < want && !hit; i++) hit = load<i32>(slot(st, SLOT_WANTED_IDS + i)) === key;
    if (hit) {
      store<i32>(slot(st, SLOT_KEY_ID), key);
      store<i32>(slot(st, SLOT_NAME1_ID), r1);
      store<i32>(slot(st, SLOT_NAME2_ID), r2);
      store<u32>(slot(st, SLOT_VALUE1_AT), xAt);
      store<u32>(slot(st, SLOT_VALUE2_AT), yAt);
      store<i32>(slot(st, SLOT_REPORT), 1);
      break;
    }
  }
  store<u32>(slot(st, SLOT_MEMO_LEN), memoLen);
  return p;
}
