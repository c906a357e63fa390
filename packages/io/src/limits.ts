// The one policy on input size every reader follows: how long a line may be, and how many
// (decompressed) bytes may be held whole: read into memory, or unpacked to disk from an archive.
import { constants } from "node:buffer";
import { InputError, type InputLocation } from "./errors.js";

/** The limits; a CLI's `--max-line-bytes` and `--max-input-bytes` set them for its process. */
export interface InputLimits {
  /** Longest line a line reader takes, in bytes (its `\r` included, its `\n` not). */
  readonly lineBytes: number;
  /**
   * Most bytes of one input held whole, counted after decompression: a whole-file read (a JSON
   * document, a qrels file, a run on stdin) or an archive's member unpacked. Streamed line readers
   * have no total: a 30 GB collection streams in bounded memory, one line at a time.
   */
  readonly wholeBytes: number;
}

/**
 * Lines: far past any real record (a ClueWeb22 document is a few MB), small enough that one held
 * while it is read cannot take the machine. Whole inputs: ClariQ's and Qulac's largest files are
 * tens of MB; the cap keeps a bomb's peak memory near it, and stays below V8's string limit.
 */
export const DEFAULT_INPUT_LIMITS: InputLimits = { lineBytes: 64 << 20, wholeBytes: 256 << 20 };

/**
 * The limits set on the main thread, carried to worker threads (and child processes) in the
 * environment, which a worker receives as a copy when it starts: a reader on a pool's thread
 * follows the user's `--max-line-bytes` as one on the main thread does.
 */
const LIMITS_ENV = "CONVKIT_INPUT_LIMITS";

function inherited(): InputLimits {
  const m = /^(\d+),(\d+)$/.exec(process.env[LIMITS_ENV] ?? "");
  return m ? { lineBytes: Number(m[1]), wholeBytes: Number(m[2]) } : DEFAULT_INPUT_LIMITS;
}

let current: InputLimits = inherited();

/** Sets the process's limits (the options not given keep their defaults), for its workers too. */
export function setInputLimits(limits: Partial<InputLimits>): void {
  current = { ...DEFAULT_INPUT_LIMITS, ...limits };
  process.env[LIMITS_ENV] = `${current.lineBytes},${current.wholeBytes}`;
}

export function inputLimits(): InputLimits {
  return current;
}

const n = (x: number) => x.toLocaleString("en-US");

/**
 * What a line past the cap is: `FILE:LINE: expected a line of at most N bytes (raise with
 * --max-line-bytes), found a longer one` (or `FILE:byte OFFSET: …`, the line's first byte, where
 * lines are not counted).
 */
export function lineTooLong(file: string, where: InputLocation, max = current.lineBytes): InputError {
  return new InputError(
    file,
    where,
    `a line of at most ${n(max)} bytes (raise with --max-line-bytes)`,
    "a longer one",
  );
}

/** What an input past the whole-input cap is (`at`: the decompressed byte where it was seen). */
export function inputTooLarge(file: string, at: number, max = current.wholeBytes): InputError {
  return new InputError(
    file,
    {},
    `at most ${n(max)} bytes to hold whole, after decompression (raise with --max-input-bytes)`,
    `more (${n(at)} bytes read)`,
  );
}

/** The bytes of `chunks`, passed on until there are more than `max`: then {@link inputTooLarge}. */
export async function* capBytes(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  max = current.wholeBytes,
): AsyncIterable<Uint8Array> {
  let total = 0;
  for await (const c of chunks) {
    total += c.length;
    if (total > max) throw inputTooLarge(file, total, max);
    yield c;
  }
}

/** V8's longest string, in UTF-16 units (about 512 Mi on 64-bit Node 20 and later). */
export const MAX_STRING_LENGTH = constants.MAX_STRING_LENGTH;

/**
 * The UTF-16 length of valid UTF-8 bytes (a string's `length` once decoded): one unit per lead
 * byte, two for a 4-byte sequence. Counted without decoding, to say before decoding that a text
 * cannot be one string.
 */
export function utf16Length(bytes: Uint8Array): number {
  let units = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** What a text longer than V8 can hold as one string is. */
export function textTooLong(file: string, units: number): InputError {
  return new InputError(
    file,
    {},
    `a text of at most ${n(MAX_STRING_LENGTH)} characters (V8's string limit: JavaScript cannot hold a longer string)`,
    `${n(units)} characters`,
  );
}
