// AssemblyScript: the tokenizer's hot path as spaCy's `_tokenize_affixes` walks a text, over its
// UTF-16 code units. `wasm/build.mjs` compiles it into src/chunks-wasm.ts (committed; a test checks
// it is what this source and chunks-shared.ts compile to).
//
// `scan` splits the text into pieces (whitespace-delimited chunks and the whitespace runs between
// them, as tokenizer.ts describes), hashing each as it goes, then resolves them in order from the
// chunk cache: a cached chunk's tokens are pushed at once; at the first chunk the cache does not
// hold, it returns, and JavaScript runs the affix rules on it (regular expressions, asking the
// kernel about the windows it peels: `endsPeel`, `isSpecial`), pushes its tokens (`pushRange`,
// `pushCachedRange`), and calls `settleResolve` to cache it and resolve the rest. Tables are open-addressing
// hash tables of 32-byte slots keyed by a range of code units; the lexicon's index is one too.
import {
  D_CAPACITY,
  D_CHARS_AT,
  D_CHARS_CAP,
  D_CHARS_USED,
  D_CTRL_AT,
  D_LISTS_AT,
  D_LISTS_CAP,
  D_LISTS_USED,
  D_MASK,
  D_SIZE,
  D_SLOTS_AT,
  H_LEX_AT,
  H_PIECES,
  H_PIECES_AT,
  H_PIECES_CAP,
  H_SCRATCH_AT,
  H_SCRATCH_CAP,
  H_SPACY_AT,
  H_START_AT,
  H_TABLES,
  H_TOKENS,
  H_TOKENS_CAP,
  H_TOP,
  H_TOUCHED,
  H_UNITS_AT,
  H_UNITS_CAP,
  H_YOUNG,
  HASH_PRIME,
  HASH_START,
  INLINE_UNITS,
  MISS,
  PIECE_INTS,
  S_AT,
  S_CODE,
  S_HASH,
  S_INLINE,
  S_LENGTH,
  SLOT_INTS,
  T_FIRST,
  T_LEXICON,
  T_SECOND,
  T_SPECIAL,
  TABLE_COUNT,
  TABLE_WORDS,
} from "./chunks-shared";

const SLOT_BYTES: i32 = SLOT_INTS * 4;

function header(slot: i32): i32 {
  return load<i32>(<usize>(slot << 2));
}

function setHeader(slot: i32, value: i32): void {
  store<i32>(<usize>(slot << 2), value);
}

/** Word `word` of table `t`'s descriptor. */
function field(t: i32, word: i32): i32 {
  return header(slotOf(t, word));
}

function setField(t: i32, word: i32, value: i32): void {
  setHeader(slotOf(t, word), value);
}

/** Bytes every region has past its end, which `sameUnits` may read. */
const PAD: i32 = 16;

/** `bytes` of fresh memory (16-byte aligned, zeroed: memory is only ever handed out once), PAD more. */
function allocate(bytes: i32): i32 {
  const at = (header(H_TOP) + 15) & ~15;
  const end = at + bytes + PAD;
  const pages = memory.size();
  // By half again at least: every growth is a new buffer for JavaScript, and the garbage
  // collector counts each as memory pressure.
  if (end > pages << 16 && memory.grow(max<i32>((end - (pages << 16) + 0xffff) >>> 16, pages >> 1)) < 0)
    unreachable();
  setHeader(H_TOP, end);
  return at;
}

/** Moves a region of `used` bytes at `from` to a fresh one of `bytes`; its new address. */
function reallocate(from: i32, used: i32, bytes: i32): i32 {
  const at = allocate(bytes);
  memory.copy(<usize>at, <usize>from, <usize>used);
  return at;
}

/** `cap` doubled until it is at least `n`. */
function doubled(cap: i32, n: i32): i32 {
  let grown = cap * 2;
  while (grown < n) grown *= 2;
  return grown;
}

/**
 * Makes the region whose address and capacity are in header slots `atSlot` and `capSlot` hold `n`
 * items of `size` bytes, its first `used` items kept: a region that grows moves to fresh memory.
 */
function reserveRegion(atSlot: i32, capSlot: i32, n: i32, size: i32, used: i32): void {
  const cap = header(capSlot);
  if (n <= cap) return;
  const grown = doubled(cap, n);
  setHeader(atSlot, reallocate(header(atSlot), used * size, grown * size));
  setHeader(capSlot, grown);
}

/** The header slot of word `word` of table `t`'s descriptor. */
function slotOf(t: i32, word: i32): i32 {
  return H_TABLES + t * TABLE_WORDS + word;
}

/**
 * Python's `str.isspace()` for one code unit (what splits a text into chunks): @convkit/io's
 * `isPySpace`, which the kernel cannot call per unit; chunk-kernel.test.ts checks that the two
 * agree on every code unit.
 */
function isPySpace(c: i32): bool {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

function unit(units: i32, i: i32): i32 {
  return <i32>load<u16>(<usize>(units + (i << 1)));
}

/** The FNV-1a hash of code units [a, b) at `units` (what every table is keyed by). */
export function hashOf(units: i32, a: i32, b: i32): i32 {
  let h = HASH_START;
  for (let i = a; i < b; i++) h = (h ^ unit(units, i)) * HASH_PRIME;
  return h;
}

// Tables.

/** Sets up table `t` with room for `capacity` entries (slots at most 3/4 full). */
export function createTable(t: i32, capacity: i32): void {
  let slots = 16;
  while (slots * 3 < capacity * 4) slots <<= 1;
  setField(t, D_SLOTS_AT, allocate(slots * SLOT_BYTES));
  setField(t, D_CTRL_AT, allocate(slots));
  setField(t, D_MASK, slots - 1);
  setField(t, D_CHARS_AT, allocate(1 << 15));
  setField(t, D_CHARS_CAP, 1 << 14);
  setField(t, D_CHARS_USED, 0);
  setField(t, D_LISTS_AT, allocate(1 << 14));
  setField(t, D_LISTS_CAP, 1 << 12);
  setField(t, D_LISTS_USED, 0);
  setField(t, D_SIZE, 0);
  setField(t, D_CAPACITY, capacity);
}

/** Forgets every entry of table `t`. */
export function clearTable(t: i32): void {
  if (field(t, D_SIZE) !== 0) memory.fill(<usize>field(t, D_CTRL_AT), 0, <usize>(field(t, D_MASK) + 1));
  setField(t, D_SIZE, 0);
  setField(t, D_CHARS_USED, 0);
  setField(t, D_LISTS_USED, 0);
}

/** Whether table `t` holds as many entries as it takes. */
export function isFull(t: i32): bool {
  return field(t, D_SIZE) >= field(t, D_CAPACITY);
}

/** Table `t`'s entries. */
export function sizeOf(t: i32): i32 {
  return field(t, D_SIZE);
}

/**
 * Whether the `n` code units at `x` and `y` are the same, read 8 bytes at a time (every region is
 * allocated with PAD bytes to spare, so the last read may run past the units).
 */
function sameUnits(x: i32, y: i32, n: i32): bool {
  const bytes = n << 1;
  let k = 0;
  for (; k + 8 <= bytes; k += 8) if (load<u64>(<usize>(x + k)) !== load<u64>(<usize>(y + k))) return false;
  if (k === bytes) return true;
  const tail: u64 = ((<u64>1) << ((<u64>(bytes - k)) << 3)) - 1;
  return ((load<u64>(<usize>(x + k)) ^ load<u64>(<usize>(y + k))) & tail) === 0;
}

/** An occupied slot's control byte for hash `h`: 0x80 and the hash's top 7 bits (the slot's index uses its low bits). */
function tagOf(h: i32): i32 {
  return (h >>> 25) | 0x80;
}

/** The code of units [a, b) at `units` (hash `h`) in table `t`, or MISS. */
export function get(t: i32, units: i32, a: i32, b: i32, h: i32): i32 {
  const n = b - a;
  const ctrl = field(t, D_CTRL_AT);
  const mask = field(t, D_MASK);
  const tag = tagOf(h);
  const from = units + (a << 1);
  // Up to the first empty slot (a table is at most 3/4 full; a probe past a slot reads one byte).
  for (let i = h & mask; ; i = (i + 1) & mask) {
    const c = <i32>load<u8>(<usize>(ctrl + i));
    if (c === 0) break;
    if (c !== tag) continue;
    const s = field(t, D_SLOTS_AT) + i * SLOT_BYTES;
    if (load<i32>(<usize>s, S_HASH * 4) !== h || load<i32>(<usize>s, S_LENGTH * 4) - 1 !== n) continue;
    const stored =
      n <= INLINE_UNITS ? s + S_INLINE * 4 : field(t, D_CHARS_AT) + (load<i32>(<usize>s, S_AT * 4) << 1);
    if (sameUnits(stored, from, n)) return load<i32>(<usize>s, S_CODE * 4);
  }
  return MISS;
}

/** The slot index of table `t` where an entry of hash `h` goes (not holding one: the caller checked), marked taken. */
function freeSlot(t: i32, h: i32): i32 {
  const ctrl = field(t, D_CTRL_AT);
  const mask = field(t, D_MASK);
  let i = h & mask;
  while (load<u8>(<usize>(ctrl + i)) !== 0) i = (i + 1) & mask;
  store<u8>(<usize>(ctrl + i), <u8>tagOf(h));
  return i;
}

/** Room for `n` more i32 in table `t`'s lists; the offset where they go. */
function reserveList(t: i32, n: i32): i32 {
  const used = field(t, D_LISTS_USED);
  reserveRegion(slotOf(t, D_LISTS_AT), slotOf(t, D_LISTS_CAP), used + n, 4, used);
  setField(t, D_LISTS_USED, used + n);
  return used;
}

/**
 * Adds units [a, b) at `units` (hash `h`; not in table `t`) with `code`; the slot's address. A
 * table 3/4 full grows first (a generation of the chunk cache never gets there: it rotates when
 * full, unless its special cases alone overfill it).
 */
function insert(t: i32, units: i32, a: i32, b: i32, h: i32, code: i32): i32 {
  const n = b - a;
  if (field(t, D_SIZE) * 4 >= (field(t, D_MASK) + 1) * 3) grow(t);
  const s = field(t, D_SLOTS_AT) + freeSlot(t, h) * SLOT_BYTES;
  store<i32>(<usize>s, h, S_HASH * 4);
  store<i32>(<usize>s, n + 1, S_LENGTH * 4);
  store<i32>(<usize>s, code, S_CODE * 4);
  if (n <= INLINE_UNITS) memory.copy(<usize>(s + S_INLINE * 4), <usize>(units + (a << 1)), <usize>(n << 1));
  else {
    const used = field(t, D_CHARS_USED);
    reserveRegion(slotOf(t, D_CHARS_AT), slotOf(t, D_CHARS_CAP), used + n, 2, used);
    memory.copy(<usize>(field(t, D_CHARS_AT) + (used << 1)), <usize>(units + (a << 1)), <usize>(n << 1));
    store<i32>(<usize>s, used, S_AT * 4);
    setField(t, D_CHARS_USED, used + n);
  }
  setField(t, D_SIZE, field(t, D_SIZE) + 1);
  return s;
}

/**
 * The code of units [a, b) at `units` (hash `h`) in table `t`, or, when the table does not hold
 * them, `code` added for them (the lexicon's index: an entry's id, the next id for a new one).
 */
export function intern(t: i32, units: i32, a: i32, b: i32, h: i32, code: i32): i32 {
  const known = get(t, units, a, b, h);
  if (known !== MISS) return known;
  insert(t, units, a, b, h, code);
  return code;
}

/** Doubles table `t`'s capacity: its entries laid out again in twice the slots. */
function grow(t: i32): void {
  const oldSlots = field(t, D_SLOTS_AT);
  const oldCtrl = field(t, D_CTRL_AT);
  const count = field(t, D_MASK) + 1;
  setField(t, D_SLOTS_AT, allocate(count * 2 * SLOT_BYTES));
  setField(t, D_CTRL_AT, allocate(count * 2));
  setField(t, D_MASK, count * 2 - 1);
  setField(t, D_CAPACITY, field(t, D_CAPACITY) * 2);
  for (let i = 0; i < count; i++) {
    if (load<u8>(<usize>(oldCtrl + i)) === 0) continue;
    const s = oldSlots + i * SLOT_BYTES;
    const to = field(t, D_SLOTS_AT) + freeSlot(t, load<i32>(<usize>s, S_HASH * 4)) * SLOT_BYTES;
    memory.copy(<usize>to, <usize>s, <usize>SLOT_BYTES);
  }
}

// Tokens.

/** Room for `n` tokens. */
function reserveTokens(n: i32): void {
  const cap = header(H_TOKENS_CAP);
  if (n <= cap) return;
  // Three regions of one capacity.
  const grown = doubled(cap, n);
  const used = header(H_TOKENS);
  setHeader(H_LEX_AT, reallocate(header(H_LEX_AT), used << 2, grown << 2));
  setHeader(H_START_AT, reallocate(header(H_START_AT), used << 2, grown << 2));
  setHeader(H_SPACY_AT, reallocate(header(H_SPACY_AT), used, grown));
  setHeader(H_TOKENS_CAP, grown);
}

/** Appends a token: lexicon entry `lex`, at UTF-16 offset `start`, no trailing space yet. */
export function push(lex: i32, start: i32): void {
  const k = header(H_TOKENS);
  reserveTokens(k + 1);
  store<i32>(<usize>(header(H_LEX_AT) + (k << 2)), lex);
  store<i32>(<usize>(header(H_START_AT) + (k << 2)), start);
  store<u8>(<usize>(header(H_SPACY_AT) + k), 0);
  setHeader(H_TOKENS, k + 1);
}

/** Appends the tokens `code` stands for in table `t`, the first at `at`. */
function pushCode(t: i32, code: i32, at: i32): void {
  if (code >= 0) {
    push(code, at);
    return;
  }
  const list = field(t, D_LISTS_AT) + ((-code - 2) << 2);
  const n = load<i32>(<usize>list);
  // The list's tokens in one go: room made once, the token regions' addresses read once.
  const k0 = header(H_TOKENS);
  reserveTokens(k0 + n);
  const lex = header(H_LEX_AT) + (k0 << 2);
  const start = header(H_START_AT) + (k0 << 2);
  memory.fill(<usize>(header(H_SPACY_AT) + k0), 0, <usize>n);
  for (let k = 0; k < n; k++) {
    store<i32>(<usize>(lex + (k << 2)), load<i32>(<usize>(list + 4 + (k << 3))));
    store<i32>(<usize>(start + (k << 2)), at + load<i32>(<usize>(list + 8 + (k << 3))));
  }
  setHeader(H_TOKENS, k0 + n);
}

/** Adds text units [a, b) (hash `h`) to table `t` with the tokens [from, to) pushed for it. */
function remember(t: i32, a: i32, b: i32, h: i32, from: i32, to: i32): void {
  let code: i32;
  if (to - from === 1) code = load<i32>(<usize>(header(H_LEX_AT) + (from << 2)));
  else {
    const o = reserveList(t, 1 + 2 * (to - from));
    const list = field(t, D_LISTS_AT) + (o << 2);
    store<i32>(<usize>list, to - from);
    for (let k = from; k < to; k++) {
      store<i32>(<usize>(list + 4 + ((k - from) << 3)), load<i32>(<usize>(header(H_LEX_AT) + (k << 2))));
      store<i32>(
        <usize>(list + 8 + ((k - from) << 3)),
        load<i32>(<usize>(header(H_START_AT) + (k << 2))) - a,
      );
    }
    code = -o - 2;
  }
  insert(t, header(H_UNITS_AT), a, b, h, code);
}

/** Copies the entry in slot `s` of table `from` (its units, code and list) into table `to`. */
function copyEntry(from: i32, s: i32, to: i32): void {
  const n = load<i32>(<usize>s, S_LENGTH * 4) - 1;
  const units =
    n <= INLINE_UNITS ? s + S_INLINE * 4 : field(from, D_CHARS_AT) + (load<i32>(<usize>s, S_AT * 4) << 1);
  let code = load<i32>(<usize>s, S_CODE * 4);
  if (code < 0) {
    const list = field(from, D_LISTS_AT) + ((-code - 2) << 2);
    const words = 1 + 2 * load<i32>(<usize>list);
    const o = reserveList(to, words);
    memory.copy(<usize>(field(to, D_LISTS_AT) + (o << 2)), <usize>list, <usize>(words << 2));
    code = -o - 2;
  }
  insert(to, units, 0, n, load<i32>(<usize>s, S_HASH * 4), code);
}

/** A new young generation of the chunk cache (the young one becomes the older), holding the special cases. */
export function rotate(): void {
  const young = header(H_YOUNG) === T_FIRST ? T_SECOND : T_FIRST;
  setHeader(H_YOUNG, young);
  clearTable(young);
  const ctrl = field(T_SPECIAL, D_CTRL_AT);
  const n = field(T_SPECIAL, D_MASK) + 1;
  for (let i = 0; i < n; i++)
    if (load<u8>(<usize>(ctrl + i)) !== 0)
      copyEntry(T_SPECIAL, field(T_SPECIAL, D_SLOTS_AT) + i * SLOT_BYTES, young);
}

/** Adds a special case: units [a, b) of the scratch region, whose tokens are the last `n` pushed. */
export function addSpecial(a: i32, b: i32, n: i32): void {
  const units = header(H_SCRATCH_AT);
  const tokens = header(H_TOKENS);
  const saved = header(H_UNITS_AT);
  // remember reads the units at H_UNITS_AT.
  setHeader(H_UNITS_AT, units);
  const h = hashOf(units, a, b);
  if (get(T_SPECIAL, units, a, b, h) === MISS) remember(T_SPECIAL, a, b, h, tokens - n, tokens);
  setHeader(H_UNITS_AT, saved);
  setHeader(H_TOKENS, tokens - n);
}

/**
 * Whether text units [a, b) end the peeling of a chunk's affixes: a special case's chunk, or (when
 * `cached`) a chunk either generation of the cache holds. One hash for both questions.
 */
export function endsPeel(a: i32, b: i32, cached: bool): bool {
  const units = header(H_UNITS_AT);
  const h = hashOf(units, a, b);
  if (get(T_SPECIAL, units, a, b, h) !== MISS) return true;
  return cached && (get(T_FIRST, units, a, b, h) !== MISS || get(T_SECOND, units, a, b, h) !== MISS);
}

/** {@link pushCached} of text units [a, b), hashed here. */
export function pushCachedRange(a: i32, b: i32): bool {
  return pushCached(a, b, hashOf(header(H_UNITS_AT), a, b));
}

/**
 * Pushes text units [a, b) as one token at `a`: its lexicon entry, or `next` (the id the next new
 * entry gets) added for it. The entry's id: `next` when it is new (JavaScript then adds its text).
 */
export function pushRange(a: i32, b: i32, next: i32): i32 {
  const units = header(H_UNITS_AT);
  const id = intern(T_LEXICON, units, a, b, hashOf(units, a, b), next);
  push(id, a);
  return id;
}

/** Whether text units [a, b) are a special case's chunk. */
export function isSpecial(a: i32, b: i32): bool {
  const units = header(H_UNITS_AT);
  return get(T_SPECIAL, units, a, b, hashOf(units, a, b)) !== MISS;
}

/**
 * Pushes the cached tokens of text units [a, b) (hash `h`), the first at `a`, from either
 * generation (a chunk found in the older one moves up); false if neither holds it.
 */
function pushCached(a: i32, b: i32, h: i32): bool {
  const units = header(H_UNITS_AT);
  const young = header(H_YOUNG);
  const hit = get(young, units, a, b, h);
  if (hit !== MISS) {
    pushCode(young, hit, a);
    return true;
  }
  const older = young === T_FIRST ? T_SECOND : T_FIRST;
  const old = get(older, units, a, b, h);
  if (old === MISS) return false;
  const before = header(H_TOKENS);
  pushCode(older, old, a);
  settleChunk(a, b, h, before);
  return true;
}

/** Caches text units [a, b) (hash `h`, in neither generation) with the tokens pushed since `from`. */
function settleChunk(a: i32, b: i32, h: i32, from: i32): void {
  if (isFull(header(H_YOUNG))) rotate();
  remember(header(H_YOUNG), a, b, h, from, header(H_TOKENS));
}

// The text.

/** Room for a text of `n` code units (its units, pieces and tokens); the units' byte address. */
export function reserveText(n: i32): i32 {
  // The last text's units and pieces are not kept.
  reserveRegion(H_UNITS_AT, H_UNITS_CAP, n, 2, 0);
  reserveRegion(H_PIECES_AT, H_PIECES_CAP, n + 1, PIECE_INTS * 4, 0);
  setHeader(H_TOKENS, 0);
  reserveTokens(n + 16);
  return header(H_UNITS_AT);
}

/** Room for `n` code units of scratch; their byte address. */
export function reserveScratch(n: i32): i32 {
  reserveRegion(H_SCRATCH_AT, H_SCRATCH_CAP, n, 2, 0);
  return header(H_SCRATCH_AT);
}

function addPiece(k: i32, a: i32, b: i32, h: i32, spaceAfter: bool): i32 {
  const p = header(H_PIECES_AT) + k * PIECE_INTS * 4;
  store<i32>(<usize>p, a);
  store<i32>(<usize>p, spaceAfter ? ~b : b, 4);
  store<i32>(<usize>p, h, 8);
  return k + 1;
}

/**
 * Splits the text (`n` units, after `reserveText`) into pieces: chunks between whitespace runs; a
 * run's first unit, if it is ' ', is the trailing space of the chunk before it; the rest of a run
 * (or a run that starts the text) is a piece of its own. Then resolves them from piece 0 when
 * `cached` (else leaves every piece to JavaScript): the first piece not resolved, or −1.
 */
export function scan(n: i32, cached: bool): i32 {
  const units = header(H_UNITS_AT);
  let pieces = 0;
  let start = 0;
  let i = 0;
  let h = HASH_START;
  while (i < n) {
    const c = unit(units, i);
    // Most units: printable ASCII other than the space.
    if ((c > 32 && c < 0x85) || !isPySpace(c)) {
      h = (h ^ c) * HASH_PRIME;
      i++;
      continue;
    }
    let a = i;
    let b = i + 1;
    while (b < n && isPySpace(unit(units, b))) b++;
    if (a > start) {
      pieces = addPiece(pieces, start, a, h, c === 32);
      if (c === 32) a++;
    }
    if (b > a) pieces = addPiece(pieces, a, b, hashOf(units, a, b), false);
    start = i = b;
    h = HASH_START;
  }
  if (start < n) pieces = addPiece(pieces, start, n, h, false);
  setHeader(H_PIECES, pieces);
  setHeader(H_TOKENS, 0);
  if (cached) touchSlots(pieces);
  return cached ? resolve(0) : pieces > 0 ? 0 : -1;
}

/**
 * Reads the control byte and slot where each piece's lookup starts in both generations, one piece
 * after another with no branch on what they hold: the cache misses of a text's chunks overlap
 * instead of stalling `resolve` one chunk at a time.
 */
function touchSlots(pieces: i32): void {
  let touched: i32 = 0;
  const young = header(H_YOUNG);
  const older = young === T_FIRST ? T_SECOND : T_FIRST;
  const yCtrl = field(young, D_CTRL_AT);
  const yMask = field(young, D_MASK);
  const ySlots = field(young, D_SLOTS_AT);
  const oCtrl = field(older, D_CTRL_AT);
  const oMask = field(older, D_MASK);
  const oSlots = field(older, D_SLOTS_AT);
  const at = header(H_PIECES_AT);
  for (let k = 0; k < pieces; k++) {
    const h = load<i32>(<usize>(at + k * PIECE_INTS * 4), 8);
    const yi = h & yMask;
    const oi = h & oMask;
    touched += <i32>load<u8>(<usize>(yCtrl + yi)) + load<i32>(<usize>(ySlots + yi * SLOT_BYTES));
    touched += <i32>load<u8>(<usize>(oCtrl + oi)) + load<i32>(<usize>(oSlots + oi * SLOT_BYTES));
  }
  setHeader(H_TOUCHED, touched);
}

/**
 * After JavaScript tokenized piece `k` (units [a, b), hash `h`, its tokens pushed since `from`):
 * caches it, marks a following space (`spaceAfter`), and resolves the pieces after it, as
 * `settleChunk`, `spaceAfterLast` and `resolve(k + 1)` would: the first piece not resolved, or −1.
 */
export function settleResolve(a: i32, b: i32, h: i32, from: i32, spaceAfter: bool, k: i32): i32 {
  settleChunk(a, b, h, from);
  if (spaceAfter) spaceAfterLast();
  return resolve(k + 1);
}

/** Marks the last token pushed as followed by a space. */
export function spaceAfterLast(): void {
  store<u8>(<usize>(header(H_SPACY_AT) + header(H_TOKENS) - 1), 1);
}

/** Pushes the cached tokens of pieces k, k + 1, …: the first piece the cache does not hold, or −1. */
function resolve(k: i32): i32 {
  const pieces = header(H_PIECES);
  for (; k < pieces; k++) {
    const p = header(H_PIECES_AT) + k * PIECE_INTS * 4;
    const b = load<i32>(<usize>p, 4);
    if (!pushCached(load<i32>(<usize>p), b < 0 ? ~b : b, load<i32>(<usize>p, 8))) return k;
    if (b < 0) spaceAfterLast();
  }
  return -1;
}

/** Sets up an empty kernel: text, pieces, tokens and scratch regions, and the tables. */
export function init(cacheCapacity: i32, specialCapacity: i32, lexiconCapacity: i32): void {
  setHeader(H_TOP, max<i32>((H_TABLES + TABLE_COUNT * TABLE_WORDS) << 2, <i32>__heap_base));
  setHeader(H_UNITS_AT, allocate(1 << 13));
  setHeader(H_UNITS_CAP, 1 << 12);
  setHeader(H_PIECES_AT, allocate((1 << 12) * PIECE_INTS * 4));
  setHeader(H_PIECES_CAP, 1 << 12);
  setHeader(H_LEX_AT, allocate(1 << 14));
  setHeader(H_START_AT, allocate(1 << 14));
  setHeader(H_SPACY_AT, allocate(1 << 12));
  setHeader(H_TOKENS_CAP, 1 << 12);
  setHeader(H_TOKENS, 0);
  setHeader(H_SCRATCH_AT, allocate(1 << 13));
  setHeader(H_SCRATCH_CAP, 1 << 12);
  createTable(T_FIRST, cacheCapacity);
  createTable(T_SECOND, cacheCapacity);
  createTable(T_SPECIAL, specialCapacity);
  createTable(T_LEXICON, lexiconCapacity);
  setHeader(H_YOUNG, T_FIRST);
}
