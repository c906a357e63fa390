// AssemblyScript: what the kernel (dict-items.ts) and its JavaScript side (src/dict-items.ts)
// agree on. wasm/build.mjs copies each constant into src/dict-items-wasm.ts, so both sides read
// the same numbers from one place (the freshness test fails when they drift).

// The state block: i32 slots at the start of the kernel's memory, read and written by both sides.

/** The memo's length: set by JavaScript before a call, left by the kernel after it. */
export const SLOT_MEMO_LEN: i32 = 0;
/** The item taken last: its key's string id. */
export const SLOT_KEY_ID: i32 = 1;
/** The item taken last: its first name's string id. */
export const SLOT_NAME1_ID: i32 = 2;
/** The item taken last: its second name's string id. */
export const SLOT_NAME2_ID: i32 = 3;
/** The item taken last: the byte offset of its first float (BINFLOAT's 8 bytes, big-endian). */
export const SLOT_VALUE1_AT: i32 = 4;
/** The item taken last: the byte offset of its second float. */
export const SLOT_VALUE2_AT: i32 = 5;
/** 1 when the call stopped after an item to report, 0 when before an item it does not take. */
export const SLOT_REPORT: i32 = 6;
/** How many wanted key ids follow at SLOT_WANTED_IDS; -1: every item is to report. */
export const SLOT_WANTED_COUNT: i32 = 7;
/** The first of the wanted key ids. */
export const SLOT_WANTED_IDS: i32 = 8;
/** Bytes of the state block; the scanned bytes follow it. */
export const STATE_BYTES: i32 = 256;

/**
 * The most bytes one item of the kernel's shape takes (every memo op long):
 * LONG_BINGET, EMPTY_DICT, LONG_BINPUT, MARK, LONG_BINGET BINFLOAT, LONG_BINGET BINFLOAT, SETITEMS.
 */
export const ITEM_MAX: i32 = 5 + 1 + 5 + 1 + 5 + 9 + 5 + 9 + 1;
