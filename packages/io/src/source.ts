// Byte sources: files or stdin, split archive parts, and decompression recognized by content.
import { spawn } from "node:child_process";
import { createReadStream, existsSync, statSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { createGunzip } from "node:zlib";
import { asError, InputError, messageOf } from "./errors.js";
import { inputLimits, inputTooLarge } from "./limits.js";

/** A named stream of byte chunks. `name` is what error messages cite. */
export interface ByteSource {
  readonly name: string;
  readonly chunks: AsyncIterable<Uint8Array>;
}

const CHUNK = 1 << 18;

/** Bytes of a stream kept for a second reader (format detection reads the head, then the reader starts over). */
const REPLAY_BYTES = 4 << 20;

/**
 * stdin, or a pipe or FIFO given by path, for several readers in turn: each starts from byte 0.
 * What the readers before took is kept (up to REPLAY_BYTES) and replayed; a reader that stops
 * early leaves the stream open for the next. Why: a path can be opened twice (sniffed, then read)
 * and a stream cannot be reopened (a FIFO opened again waits for a writer that never comes; a
 * pipe opened again goes on after what the first reader took).
 */
class StreamReplay {
  /** Chunks from position `base` on: the replayable head, or those a reader has yet to take. */
  private readonly kept: Uint8Array[] = [];
  private base = 0;
  private keptBytes = 0;
  /** False once a reader went past what is kept: no later reader can start from byte 0. */
  private replayable = true;
  private readonly it: AsyncIterator<Uint8Array>;
  private ended = false;
  /**
   * The one read of the stream under way. A reader that stopped may still be waiting on it (a
   * decompressor's feeder that asked for more before its consumer left): what it brings is kept
   * for the next reader, never taken away from it.
   */
  private pulling: Promise<void> | undefined;

  constructor(
    private readonly name: string,
    readonly stream: AsyncIterable<Uint8Array> & { destroy(): void; readableEnded: boolean },
  ) {
    this.it = stream[Symbol.asyncIterator]();
  }

  private pull(): Promise<void> {
    this.pulling ??= this.it.next().then(
      (r) => {
        this.pulling = undefined;
        if (r.done) this.ended = true;
        else {
          this.kept.push(r.value);
          this.keptBytes += r.value.length;
        }
      },
      (e: unknown) => {
        this.pulling = undefined;
        throw e;
      },
    );
    return this.pulling;
  }

  async *reader(): AsyncIterable<Uint8Array> {
    if (!this.replayable)
      throw new Error(`${this.name} was read past its first ${REPLAY_BYTES} bytes and cannot be read again`);
    let at = 0;
    for (;;) {
      if (at < this.base) throw new Error(`${this.name}: a second reader while the first streams on`);
      if (at - this.base < this.kept.length) {
        const chunk = this.kept[at - this.base]!;
        at++;
        if (!this.replayable || this.keptBytes > REPLAY_BYTES) {
          // Past the replayable head: this reader streams on alone, and lets what it took go.
          this.replayable = false;
          this.keptBytes -= this.kept.splice(0, at - this.base).reduce((n, c) => n + c.length, 0);
          this.base = at;
        }
        yield chunk;
        continue;
      }
      if (this.ended) return;
      await this.pull();
    }
  }
}

/** The streams read so far (stdin as `-`), by path. */
const replays = new Map<string, StreamReplay>();

/**
 * Lets stdin and the pipes read go when a command is done: a reader that stopped early (bad input
 * on line 3) would otherwise keep the process waiting for the writer's end of the pipe.
 */
export function releaseStdin(): void {
  for (const r of replays.values()) if (!r.stream.readableEnded) r.stream.destroy();
  replays.clear();
}

/** A stream from its first byte, however many readers opened it before (see {@link StreamReplay}). */
function replayed(path: string, name: string, open: () => StreamReplay["stream"]): AsyncIterable<Uint8Array> {
  let r = replays.get(path);
  if (!r) {
    r = new StreamReplay(name, open());
    replays.set(path, r);
  }
  return r.reader();
}

/**
 * Whether `path` is a pipe, FIFO, socket or device: something read once, as a stream. A folder
 * is bad input, one line naming it (read, it failed later as a bare `EISDIR … read` and a stack).
 */
function isStream(path: string): boolean {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    return false;
  }
  if (st?.isDirectory()) throw new InputError(path, {}, "a file", "a directory");
  return !st?.isFile();
}

/**
 * The raw bytes at `path` (`-` = stdin; it, a pipe or FIFO may be opened again: a second reader
 * starts over from its first byte). When `path` does not exist but `path.aa`, `path.ab`, … do
 * (ClariQ's split archives), their concatenation is returned.
 */
export function openRaw(path: string): ByteSource {
  if (path === "-") return { name: "<stdin>", chunks: replayed("-", "stdin", () => process.stdin) };
  if (!existsSync(path)) {
    const parts = splitParts(path);
    if (parts.length === 0) throw new InputError(path, {}, "an existing file", "no such file");
    return { name: path, chunks: concatFiles(parts) };
  }
  if (isStream(path))
    return {
      name: path,
      chunks: replayed(path, path, () => createReadStream(path, { highWaterMark: CHUNK })),
    };
  return { name: path, chunks: createReadStream(path, { highWaterMark: CHUNK }) };
}

/** `x.aa`, `x.ab`, … in order, as long as they exist. */
export function splitParts(path: string): string[] {
  const parts: string[] = [];
  for (let i = 0; i < 26 * 26; i++) {
    const suffix = String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26));
    const part = `${path}.${suffix}`;
    if (!existsSync(part)) break;
    parts.push(part);
  }
  return parts;
}

/**
 * The first of `names` present in `dir`, each looked for as it is, then compressed (`.gz`,
 * `.bz2`: {@link openInput} tells which by content). For tools that read fixed file names from a
 * data folder (ClariQ's `dev.tsv`, `question_bank.tsv`), where a user may keep them compressed.
 */
export function findInFolder(dir: string, names: readonly string[]): string | undefined {
  for (const name of names)
    for (const f of [name, `${name}.gz`, `${name}.bz2`]) if (existsSync(join(dir, f))) return join(dir, f);
  return undefined;
}

async function* concatFiles(paths: string[]): AsyncIterable<Uint8Array> {
  for (const p of paths) yield* createReadStream(p, { highWaterMark: CHUNK });
}

/** What the first bytes of a stream say it is. */
export type Compression = "gzip" | "bzip2" | "none";

export function sniffCompression(head: Uint8Array): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68) return "bzip2";
  return "none";
}

/** True when a 512-byte block starts a POSIX/GNU tar archive. */
export function looksLikeTar(head: Uint8Array): boolean {
  return head.length >= 262 && String.fromCharCode(...head.subarray(257, 262)) === "ustar";
}

/**
 * Peeks at the first chunk(s) of a stream and returns them with the re-assembled stream, and
 * `close` for a caller that needs only the head: it stops the stream (a file handle, a
 * decompressor process) without reading on. (Returning `rest` unread would not: a generator that
 * never started runs no cleanup.)
 */
export async function peek(
  chunks: AsyncIterable<Uint8Array>,
  min: number,
): Promise<{ head: Uint8Array; rest: AsyncIterable<Uint8Array>; close: () => Promise<void> }> {
  const it = chunks[Symbol.asyncIterator]();
  const got: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < min) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    got.push(r.value);
    size += r.value.length;
  }
  const [only] = got;
  const head = got.length === 1 && only !== undefined ? only : Buffer.concat(got);
  const close = async () => {
    if (done) return;
    done = true;
    await it.return?.();
  };
  async function* rest(): AsyncIterable<Uint8Array> {
    try {
      if (head.length > 0) yield head;
      if (done) return;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
      done = true;
    } finally {
      // Stopping early closes the underlying stream (file handle) too.
      await close();
    }
  }
  return { head, rest: rest(), close };
}

/** Decompresses gzip (any number of members) or bzip2 by content; passes anything else through. */
export async function decompressed(source: ByteSource): Promise<ByteSource> {
  const { head, rest } = await peek(source.chunks, 3);
  const kind = sniffCompression(head);
  if (kind === "gzip") return { name: source.name, chunks: gunzip(source.name, rest) };
  if (kind === "bzip2") return { name: source.name, chunks: bunzip2(source.name, rest) };
  return { name: source.name, chunks: rest };
}

/**
 * A file already open, from its start, decompressed by content (the handle stays the caller's to
 * close). A pipe or FIFO, which cannot seek, is read on from where it is: its start, when nothing
 * read it before.
 */
export async function openHandleInput(fh: FileHandle, name: string): Promise<ByteSource> {
  const start = (await fh.stat()).isFile() ? 0 : undefined;
  return decompressed({
    name,
    chunks: fh.createReadStream({ start, autoClose: false, highWaterMark: CHUNK }),
  });
}

/** Opens a file or stdin and decompresses it by content. */
export function openInput(path: string): Promise<ByteSource> {
  return decompressed(openRaw(path));
}

/**
 * Room to write to `w` again, or its end: a reader that stops early (a format sniffed from the
 * head) destroys the decompressor, and a feeder waiting for "drain" would wait for ever. Both
 * listeners go once either fires (left, a long input piled up one "close" listener per wait).
 */
function writable(w: NodeJS.EventEmitter): Promise<void> {
  return new Promise<void>((r) => {
    const done = () => {
      w.off("drain", done);
      w.off("close", done);
      r();
    };
    w.on("drain", done);
    w.on("close", done);
  });
}

async function* gunzip(name: string, chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const z = createGunzip({ chunkSize: 1 << 20 });
  let fed = 0;
  const feeding = (async () => {
    try {
      for await (const c of chunks) {
        if (z.destroyed) return; // the reader stopped: stop reading the file too
        fed += c.length;
        if (!z.write(c)) await writable(z);
      }
      z.end();
    } catch (e) {
      z.destroy(asError(e));
    }
  })();
  try {
    for await (const out of z) yield out as Uint8Array;
  } catch (e) {
    if (e instanceof InputError) throw e;
    const msg = messageOf(e);
    const truncated = /unexpected end/i.test(msg);
    throw new InputError(
      name,
      { offset: fed },
      truncated ? "a complete gzip member" : "valid gzip data",
      truncated ? "end of file" : msg,
    );
  } finally {
    z.destroy(); // stopped early or failed: ends the feeder's wait
    await feeding;
  }
}

async function* bunzip2(name: string, chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  // No maintained pure-JS bzip2 decoder exists; the system's bzip2 is fast and always correct.
  const child = spawn("bzip2", ["-dc"], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  try {
    await spawned;
  } catch {
    throw new InputError(
      name,
      {},
      "bzip2 data with a `bzip2` program on PATH to decode it",
      "no bzip2 program",
    );
  }
  const exited = new Promise<number>((r) => child.once("close", (code) => r(code ?? 1)));
  const feeding = (async () => {
    try {
      for await (const c of chunks) {
        if (child.stdin.destroyed) return; // the reader stopped (a format sniffed from the head)
        if (!child.stdin.write(c)) await writable(child.stdin);
      }
    } finally {
      child.stdin.end();
    }
  })();
  child.stdin.on("error", () => {});
  let complete = false;
  try {
    for await (const out of child.stdout) yield out as Uint8Array;
    complete = true;
  } finally {
    // A reader that stopped early: the child must go, or it keeps the process waiting on its pipes.
    if (!complete) {
      child.stdin.destroy();
      child.kill();
    }
  }
  await feeding.catch(() => {});
  if ((await exited) !== 0)
    throw new InputError(name, {}, "valid bzip2 data", stderr.trim().split("\n")[0] || "a decoding error");
}

/** Bytes a prefetch reads ahead of its consumer before it waits (a bomb must not fill memory). */
const PREFETCH_AHEAD = 64 << 20;

/**
 * Starts pulling a source at once and keeps what arrives, up to PREFETCH_AHEAD bytes ahead of the
 * consumer, so decompression in the thread pool runs ahead while the caller does other work; the
 * returned source replays it. A consumer that stops stops the pulling too.
 */
export function prefetch(source: ByteSource): ByteSource {
  const got: Uint8Array[] = [];
  let ahead = 0;
  let done = false;
  let stopped = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  let resume: (() => void) | undefined;
  void (async () => {
    try {
      for await (const c of source.chunks) {
        if (stopped) break;
        got.push(c);
        ahead += c.length;
        wake?.();
        while (ahead > PREFETCH_AHEAD && !stopped)
          await new Promise<void>((r) => {
            resume = r;
          });
        if (stopped) break;
      }
    } catch (e) {
      failure = e;
    } finally {
      done = true;
      wake?.();
    }
  })();
  async function* replay(): AsyncIterable<Uint8Array> {
    let i = 0;
    try {
      for (;;) {
        while (i < got.length) {
          const c = got[i]!;
          got[i++] = EMPTY; // hand each chunk on once; let it go
          ahead -= c.length;
          resume?.();
          resume = undefined;
          yield c;
          // Chunks already here come back in microtasks, which would starve the event loop: the reads
          // (or inflation) behind them would stop until the consumer caught up and then waited idle.
          // A turn per chunk keeps the next read in flight while the consumer works on this one.
          if (!done) await new Promise<void>((r) => setImmediate(r));
        }
        if (done) {
          if (failure !== undefined) throw failure;
          if (i >= got.length) return;
          continue;
        }
        await new Promise<void>((r) => {
          wake = r;
        });
        wake = undefined;
      }
    } finally {
      stopped = true;
      resume?.();
    }
  }
  return { name: source.name, chunks: replay() };
}

const EMPTY = new Uint8Array(0);

/**
 * Reads a whole source into one buffer (for small inputs and for formats that are not
 * streamable); more than `max` bytes (the process's whole-input cap, {@link inputLimits}) is an
 * {@link InputError} as soon as they are read, so a decompression bomb stops there.
 */
export async function readAll(source: ByteSource, max = inputLimits().wholeBytes): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const c of source.chunks) {
    total += c.length;
    if (total > max) throw inputTooLarge(source.name, total, max);
    parts.push(c);
  }
  return Buffer.concat(parts, total);
}
