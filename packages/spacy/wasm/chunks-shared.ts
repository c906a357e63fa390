// AssemblyScript: what the tokenizer's chunk kernel (chunks.ts) and its JavaScript side
// (src/chunk-kernel.ts) agree on: the header slots, the tables' descriptors and the layout of a
// table's slot. wasm/build.mjs copies each constant into src/chunks-wasm.ts.

// The header: i32 slots at address 0.

/** The next free byte (memory is handed out upwards and never given back: regions only grow). */
export const H_TOP: i32 = 0;
/** Byte address of the text's UTF-16 code units. */
export const H_UNITS_AT: i32 = 1;
/** Code units the text region holds. */
export const H_UNITS_CAP: i32 = 2;
/** Byte address of the pieces: PIECE_INTS i32 each. */
export const H_PIECES_AT: i32 = 3;
/** Pieces the region holds. */
export const H_PIECES_CAP: i32 = 4;
/** Pieces of the text being tokenized. */
export const H_PIECES: i32 = 5;
/** Byte address of the tokens' lexicon entries (i32 each). */
export const H_LEX_AT: i32 = 6;
/** Byte address of the tokens' UTF-16 offsets (i32 each). */
export const H_START_AT: i32 = 7;
/** Byte address of the tokens' trailing-space flags (u8 each). */
export const H_SPACY_AT: i32 = 8;
/** Tokens the token regions hold. */
export const H_TOKENS_CAP: i32 = 9;
/** Tokens of the text so far. */
export const H_TOKENS: i32 = 10;
/** Which table (T_FIRST or T_SECOND) is the chunk cache's young generation. */
export const H_YOUNG: i32 = 11;
/** Byte address of a scratch region for code units that are not the text's (a string looked up whole). */
export const H_SCRATCH_AT: i32 = 12;
/** Code units the scratch region holds. */
export const H_SCRATCH_CAP: i32 = 13;
/** A sum of the slots `touchSlots` reads (kept so that the reads are not optimised away). */
export const H_TOUCHED: i32 = 14;
/** The first table's descriptor (TABLE_WORDS slots a table). */
export const H_TABLES: i32 = 16;

// The tables.

/** A generation of the chunk cache (H_YOUNG says which is young). */
export const T_FIRST: i32 = 0;
/** The other generation. */
export const T_SECOND: i32 = 1;
/** The special cases' chunks. */
export const T_SPECIAL: i32 = 2;
/** The lexicon's index: token text → entry. */
export const T_LEXICON: i32 = 3;
/** Tables. */
export const TABLE_COUNT: i32 = 4;

// A table's descriptor: TABLE_WORDS i32 header slots.

/** i32 slots of a descriptor. */
export const TABLE_WORDS: i32 = 12;
/** Byte address of its slots (SLOT_INTS i32 each). */
export const D_SLOTS_AT: i32 = 0;
/** Its slots minus one (a power of two minus one). */
export const D_MASK: i32 = 1;
/** Byte address of the code units of its chunks longer than INLINE_UNITS. */
export const D_CHARS_AT: i32 = 2;
/** Code units that region holds. */
export const D_CHARS_CAP: i32 = 3;
/** Code units of it in use. */
export const D_CHARS_USED: i32 = 4;
/** Byte address of its token lists: a length, then (entry, offset in the chunk) pairs, i32. */
export const D_LISTS_AT: i32 = 5;
/** i32 that region holds. */
export const D_LISTS_CAP: i32 = 6;
/** i32 of it in use. */
export const D_LISTS_USED: i32 = 7;
/** Its entries. */
export const D_SIZE: i32 = 8;
/** Entries it takes before it is full (its slots are at most 3/4 full). */
export const D_CAPACITY: i32 = 9;
/**
 * Byte address of its control bytes, one a slot: 0 for an empty slot, else 0x80 and 7 bits of the
 * entry's hash. A probe reads these (a table's worth fits in a few hundred kilobytes, where the
 * processor's caches keep it) and touches a slot only on a likely match: most lookups of a chunk
 * the table does not hold, as every unseen word is, end without reading a slot.
 */
export const D_CTRL_AT: i32 = 10;

// A slot: SLOT_INTS i32 (32 bytes, two to a cache line): all a probe reads.

/** i32 of a slot. */
export const SLOT_INTS: i32 = 8;
/** The chunk's hash. */
export const S_HASH: i32 = 0;
/** Its length in code units + 1 (0: an empty slot). */
export const S_LENGTH: i32 = 1;
/** Its code: a lexicon entry (≥ 0, one token), or −2 − the offset of its token list. */
export const S_CODE: i32 = 2;
/** Where its code units are in the table's chars, when longer than INLINE_UNITS. */
export const S_AT: i32 = 3;
/** The first i32 of its code units kept in the slot itself. */
export const S_INLINE: i32 = 4;
/** Code units kept in the slot (most words): a hit on one reads a single cache line. */
export const INLINE_UNITS: i32 = 8;

/** i32 of a piece: start, end (`~end` when a single space follows it), hash. */
export const PIECE_INTS: i32 = 3;

/** A lookup that finds nothing. */
export const MISS: i32 = -1;
/** FNV-1a's offset basis (the hash of no units) as an i32. */
export const HASH_START: i32 = -2128831035;
/** FNV-1a's prime. */
export const HASH_PRIME: i32 = 16777619;
