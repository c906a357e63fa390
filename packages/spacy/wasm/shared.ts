// AssemblyScript: what the senter kernel (senter.ts) and its JavaScript side (src/senter-kernel.ts)
// agree on: the one architecture the kernel is compiled for, the memory layout of the weights,
// and the header slots JavaScript fills. wasm/build.mjs copies each constant into
// src/senter-wasm.ts, so both sides read the same numbers from one place.

// The architecture: spaCy's senter as every en_core_web_* 3.x pipeline ships it (Tok2Vec.v2,
// MultiHashEmbed.v2 over NORM, PREFIX, SUFFIX, SHAPE, SPACY; MaxoutWindowEncoder.v2). Another
// shape runs in plain JavaScript instead.

/** Floats per token vector. */
export const WIDTH: i32 = 16;
/** Maxout pieces of the encoder's layers. */
export const PIECES: i32 = 2;
/** Rows of an encoder layer's affine map (outputs × pieces). */
export const ROWS: i32 = 32;
/** Maxout pieces of the mixing layer. */
export const MIX_PIECES: i32 = 3;
/** Rows of the mixing layer's affine map. */
export const MIX_ROWS: i32 = 48;
/** Hash embedding tables (one per attribute), concatenated into the mixing layer's input. */
export const TABLES: i32 = 5;
/** The mixing layer's input: the tables' rows side by side. */
export const MIX_IN: i32 = 80;
/** Tokens on each side of the encoder's convolution window. */
export const WINDOW: i32 = 1;
/** An encoder layer's input: the window's rows side by side. */
export const LAYER_IN: i32 = 48;

// Attribute codes of the tables (SLOT_TABLE_ATTR).

/** NORM: the lexeme's norm. */
export const ATTR_NORM: i32 = 0;
/** PREFIX: the first character. */
export const ATTR_PREFIX: i32 = 1;
/** SUFFIX: the last three characters. */
export const ATTR_SUFFIX: i32 = 2;
/** SHAPE: spaCy's word shape. */
export const ATTR_SHAPE: i32 = 3;
/** SPACY: whether a space follows. */
export const ATTR_SPACY: i32 = 4;

// The header: i32 slots at address 0, written by JavaScript once at load.

/** Per table (TABLES slots): the byte address of its rows. */
export const SLOT_TABLE_AT: i32 = 0;
/** Per table: its number of rows. */
export const SLOT_TABLE_ROWS: i32 = 5;
/** Per table: its hash seed. */
export const SLOT_TABLE_SEED: i32 = 10;
/** Per table: its attribute code (ATTR_*). */
export const SLOT_TABLE_ATTR: i32 = 15;
/** Byte address of record 0 (a record: the token's vector, then its share of each window position). */
export const SLOT_RECORDS_AT: i32 = 20;
/** Byte address of the lexeme-norm table: (orth id, norm id) pairs of u64, open addressing. */
export const SLOT_NORMS_AT: i32 = 21;
/** Its number of pairs minus one (a power of two minus one). */
export const SLOT_NORMS_MASK: i32 = 22;
/** Byte address of the symbol table: (string hash, symbol id) pairs of u64, open addressing. */
export const SLOT_SYMBOLS_AT: i32 = 23;
/** Its number of pairs minus one. */
export const SLOT_SYMBOLS_MASK: i32 = 24;
/** Where `first` leaves what it read ahead of its rows (kept, so that those reads stay). */
export const SLOT_TOUCHED: i32 = 25;
/** Bytes of the header. */
export const HEADER_BYTES: i32 = 128;

// The weights, at fixed addresses: W input-major with rows piece-major (all outputs of piece 0,
// then of piece 1), so that maxout is a lane-wise max of whole vectors.

/** The mixing layer's W (MIX_IN × MIX_ROWS floats). */
export const MIX_W_AT: i32 = 128;
/** Its bias (MIX_ROWS floats). */
export const MIX_B_AT: i32 = 128 + 15360;
/** Its layer norm's gain (WIDTH floats). */
export const MIX_G_AT: i32 = 128 + 15360 + 192;
/** Its layer norm's bias (WIDTH floats). */
export const MIX_BETA_AT: i32 = 128 + 15360 + 192 + 64;
/** The encoder's layers, each W (LAYER_IN × ROWS), b (ROWS), G and beta (WIDTH), one after another. */
export const LAYERS_AT: i32 = 128 + 15360 + 192 + 64 + 64;
/** Bytes of one encoder layer's parameters. */
export const LAYER_BYTES: i32 = 6144 + 128 + 64 + 64;
/** Most encoder layers the layout holds. */
export const MAX_LAYERS: i32 = 4;
/** The score weights: S's minus I's (WIDTH floats), then S's bias minus I's (one float, padded). */
export const SCORE_AT: i32 = 128 + 15360 + 192 + 64 + 64 + 4 * (6144 + 128 + 64 + 64);
/** Where the weights end: tables, lookup tables, records and scratch follow. */
export const STATIC_END: i32 = 128 + 15360 + 192 + 64 + 64 + 4 * (6144 + 128 + 64 + 64) + 64 + 16;

// A job of `entries`: one new lexicon entry's strings (UTF-8 in memory) and its record's slot.

/** i32 words of a job. */
export const JOB_WORDS: i32 = 9;
/** The record slot to fill. */
export const JOB_SLOT: i32 = 0;
/** 1 when a single space follows the token. */
export const JOB_SPACY: i32 = 1;
/** Byte address of the token's text. */
export const JOB_ORTH_AT: i32 = 2;
/** Its length in bytes. */
export const JOB_ORTH_LEN: i32 = 3;
/** Byte address of the norm to use when the lexeme-norm table has none (spaCy's base norms, else `lower()`). */
export const JOB_NORM_AT: i32 = 4;
/** Its length in bytes. */
export const JOB_NORM_LEN: i32 = 5;
/** Byte address of spaCy's word shape of the token. */
export const JOB_SHAPE_AT: i32 = 6;
/** Its length in bytes. */
export const JOB_SHAPE_LEN: i32 = 7;
/** 1 when the norm is a special case's own (the lexeme-norm table does not override it). */
export const JOB_NORM_FIXED: i32 = 8;

/** Bytes of a record: the token's vector (WIDTH floats), then its share of the first encoder layer at each window position (2·WINDOW + 1 times ROWS floats). */
export const RECORD_BYTES: i32 = 4 * (16 + 3 * 32);
