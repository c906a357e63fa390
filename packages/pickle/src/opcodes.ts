// Pickle opcode bytes (CPython Lib/pickle.py), protocols 0-5.
export const MARK = 0x28; // (
export const STOP = 0x2e; // .
export const POP = 0x30; // 0
export const POP_MARK = 0x31; // 1
export const DUP = 0x32; // 2
export const FLOAT = 0x46; // F
export const INT = 0x49; // I
export const BININT = 0x4a; // J
export const BININT1 = 0x4b; // K
export const LONG = 0x4c; // L
export const BININT2 = 0x4d; // M
export const NONE = 0x4e; // N
const PERSID = 0x50; // P
const BINPERSID = 0x51; // Q
export const REDUCE = 0x52; // R
export const STRING = 0x53; // S
export const BINSTRING = 0x54; // T
export const SHORT_BINSTRING = 0x55; // U
export const UNICODE = 0x56; // V
export const BINUNICODE = 0x58; // X
export const APPEND = 0x61; // a
const BUILD = 0x62; // b
export const GLOBAL = 0x63; // c
export const DICT = 0x64; // d
export const EMPTY_DICT = 0x7d; // }
export const APPENDS = 0x65; // e
export const GET = 0x67; // g
export const BINGET = 0x68; // h
export const INST = 0x69; // i
export const LONG_BINGET = 0x6a; // j
export const LIST = 0x6c; // l
export const EMPTY_LIST = 0x5d; // ]
const OBJ = 0x6f; // o
export const PUT = 0x70; // p
export const BINPUT = 0x71; // q
export const LONG_BINPUT = 0x72; // r
export const SETITEM = 0x73; // s
export const TUPLE = 0x74; // t
export const EMPTY_TUPLE = 0x29; // )
export const SETITEMS = 0x75; // u
export const BINFLOAT = 0x47; // G
export const PROTO = 0x80;
const NEWOBJ = 0x81;
const EXT1 = 0x82;
const EXT2 = 0x83;
const EXT4 = 0x84;
export const TUPLE1 = 0x85;
export const TUPLE2 = 0x86;
export const TUPLE3 = 0x87;
export const NEWTRUE = 0x88;
export const NEWFALSE = 0x89;
export const LONG1 = 0x8a;
export const LONG4 = 0x8b;
export const BINBYTES = 0x42; // B
export const SHORT_BINBYTES = 0x43; // C
export const SHORT_BINUNICODE = 0x8c;
export const BINUNICODE8 = 0x8d;
export const BINBYTES8 = 0x8e;
export const EMPTY_SET = 0x8f;
export const ADDITEMS = 0x90;
export const FROZENSET = 0x91;
const NEWOBJ_EX = 0x92;
export const STACK_GLOBAL = 0x93;
export const MEMOIZE = 0x94;
export const FRAME = 0x95;
export const BYTEARRAY8 = 0x96;
const NEXT_BUFFER = 0x97;
const READONLY_BUFFER = 0x98;

/** Opcodes that would import or call code: convkit refuses every one of them. */
export const EXECUTING: ReadonlyMap<number, string> = new Map([
  [GLOBAL, "GLOBAL"],
  [STACK_GLOBAL, "STACK_GLOBAL"],
  [REDUCE, "REDUCE"],
  [BUILD, "BUILD"],
  [INST, "INST"],
  [OBJ, "OBJ"],
  [NEWOBJ, "NEWOBJ"],
  [NEWOBJ_EX, "NEWOBJ_EX"],
  [EXT1, "EXT1"],
  [EXT2, "EXT2"],
  [EXT4, "EXT4"],
  [PERSID, "PERSID"],
  [BINPERSID, "BINPERSID"],
  [NEXT_BUFFER, "NEXT_BUFFER"],
  [READONLY_BUFFER, "READONLY_BUFFER"],
]);
