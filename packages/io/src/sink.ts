// Output: buffered byte sinks that appear atomically (temp file in the target folder, rename on success).
import {
  constants,
  createWriteStream,
  fstatSync,
  rmdirSync,
  rmSync,
  type WriteStream,
  writeSync,
} from "node:fs";
import { access, mkdir, readdir, rename, rm, rmdir, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { Writable } from "node:stream";
import { createGzip } from "node:zlib";
import { asError, OutputError, UsageError } from "./errors.js";

/**
 * A buffered writer; `write` resolves once the data is accepted (backpressure respected).
 * `release`, when given, is called once the sink is done with the bytes of `data` (written out
 * or copied), so that their buffer can be reused.
 */
export interface ByteSink {
  write(data: string | Uint8Array, release?: () => void): Promise<void>;
}

/** Temp files and folders of writes in progress (removed on a signal, a failure, an early exit). */
const pending = new Set<string>();

/** Output folders a command is filling ({@link withOutputDir}): the folder, and the first of its parents it made. */
const madeFolders = new Set<{ dir: string; upTo: string }>();

/**
 * Removes temp files and folders of writes still in progress (the CLIs call it on SIGINT/SIGTERM and
 * failures), then the output folders a command made, where they are still empty (rmdir: a finished
 * file in them keeps them).
 */
export function removePendingTempFiles(): void {
  for (const p of pending) {
    try {
      rmSync(p, { recursive: true, force: true });
    } catch {
      // already gone, or its folder went first
    }
  }
  pending.clear();
  for (const { dir, upTo } of madeFolders) {
    try {
      for (let d = dir; ; d = dirname(d)) {
        rmdirSync(d);
        if (d === upTo || dirname(d) === d) break;
      }
    } catch {
      // not empty (a finished output stays), or already gone
    }
  }
  madeFolders.clear();
}

/**
 * Registers a temp file or folder made outside {@link writeAtomic} (spools, a pickle before its
 * tar.gz), so that a signal or a failure removes it; returns the function that unregisters it.
 */
export function registerTemp(path: string): () => void {
  pending.add(path);
  return () => {
    pending.delete(path);
  };
}

/** The temp name of a write of `target`: `.NAME.PID.RANDOM.tmp` beside it (the sweep below knows it by this). */
function tempPathFor(target: string): string {
  return join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`,
  );
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Per folder, its temp entries by target name, listed once per process (a folder of many outputs is read once). */
const tempsByFolder = new Map<string, Promise<Map<string, string[]>>>();
const TEMP = /^\.(.+)\.(\d+)\.[a-z0-9]+\.tmp$/;

/** Whether `name` is a write's temp file or folder (`.NAME.PID.RANDOM.tmp`) whose process is gone. */
export function isDeadTemp(name: string): boolean {
  const t = TEMP.exec(name);
  return t !== null && !alive(Number(t[2]));
}

/**
 * Removes temp files and folders of earlier writes of `target` whose process is gone (a run
 * killed with SIGKILL or a power cut leaves them; a later write of the same output sweeps them).
 */
export async function removeStaleTemps(target: string): Promise<void> {
  const dir = resolve(dirname(target));
  let listing = tempsByFolder.get(dir);
  if (!listing) {
    listing = readdir(dir).then(
      (names) => {
        const m = new Map<string, string[]>();
        for (const n of names) {
          const [, target, pid] = TEMP.exec(n) ?? [];
          if (target !== undefined && !alive(Number(pid)))
            m.set(target, [...(m.get(target) ?? []), join(dir, n)]);
        }
        return m;
      },
      () => new Map<string, string[]>(),
    );
    tempsByFolder.set(dir, listing);
  }
  const byName = await listing;
  const stale = byName.get(basename(target));
  if (!stale) return;
  byName.delete(basename(target));
  for (const p of stale) await rm(p, { recursive: true, force: true }).catch(() => {});
}

/**
 * Checks, before any work, that `target` (a file; `-` is stdout) can be written: not a folder,
 * and its nearest existing folder writable. Failures are one-line {@link OutputError}s.
 */
export async function checkOutputPath(target: string): Promise<void> {
  if (target === "-") return;
  const st = await stat(target).catch(() => undefined);
  if (st?.isDirectory()) throw new OutputError(target, "is a directory", "EISDIR");
  await checkWritableFolder(target, dirname(resolve(target)));
}

/** Checks, before any work, that folder `dir` exists or can be made, and can be written in. */
export async function checkOutputDir(dir: string): Promise<void> {
  // `-` is stdout where a command writes one file; taken as a folder it was made silently as ./-.
  if (dir === "-")
    throw new UsageError("the output here is a folder of several files, not stdout: give a folder, not -");
  await checkWritableFolder(dir, resolve(dir));
}

async function checkWritableFolder(shown: string, dir: string): Promise<void> {
  // mkdir -p on a read-only or forbidden parent says ENOENT: name the real cause instead.
  let at = dir;
  for (;;) {
    const st = await stat(at).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? undefined : e));
    if (st instanceof Error) throw OutputError.of(shown, st);
    if (st) {
      if (!st.isDirectory()) throw new OutputError(shown, `${at} is not a directory`, "ENOTDIR");
      break;
    }
    if (dirname(at) === at) return;
    at = dirname(at);
  }
  await access(at, constants.W_OK | constants.X_OK).catch((e) => {
    throw OutputError.of(shown, e);
  });
}

/**
 * Runs `fill` with folder `dir` checked and made (as mkdir -p); when `fill` fails, the folders this
 * made are removed once empty, after all of `fill`'s writes have settled (on SIGINT/SIGTERM, by
 * {@link removePendingTempFiles}). For commands that write
 * several files into a folder at once: each write removes only the folders it made itself, while
 * the others' temp files still stood, so a full disk left the output folder behind, empty.
 */
export async function withOutputDir<T>(dir: string, fill: () => Promise<T>): Promise<T> {
  await checkOutputDir(dir);
  const folder = await makeFolder(resolve(dir), dir);
  try {
    return await fill();
  } catch (e) {
    await folder.removeIfEmpty();
    throw e;
  } finally {
    folder.settled();
  }
}

/**
 * Makes folder `full` (absolute) as mkdir -p. What it made is removed while empty by
 * `removeIfEmpty` (a failed write) and, until `settled`, on SIGINT/SIGTERM by
 * {@link removePendingTempFiles}, once the temp files in it are gone.
 */
async function makeFolder(
  full: string,
  shown: string,
): Promise<{ removeIfEmpty(): Promise<void>; settled(): void }> {
  const made = await mkdir(full, { recursive: true }).catch((e) => {
    throw OutputError.of(shown, e);
  });
  const folder = made === undefined ? undefined : { dir: full, upTo: made };
  if (folder) madeFolders.add(folder);
  return {
    removeIfEmpty: async () => {
      if (folder) await removeEmptyDirs(folder.dir, folder.upTo);
    },
    settled: () => {
      if (folder) madeFolders.delete(folder);
    },
  };
}

/**
 * Runs `fill` with a fresh temp folder beside `target` (`.NAME.PID.RANDOM.tmp`, swept like a temp
 * file), removed afterwards, on failure and on a signal: for outputs made in steps (a pickle,
 * then its tar.gz).
 */
export async function withTempDir<T>(target: string, fill: (dir: string) => Promise<T>): Promise<T> {
  await checkWritableFolder(target, dirname(resolve(target)));
  await mkdir(dirname(target), { recursive: true }).catch((e) => {
    throw OutputError.of(target, e);
  });
  await removeStaleTemps(target);
  const dir = tempPathFor(target);
  const unregister = registerTemp(dir);
  try {
    await mkdir(dir).catch((e) => {
      throw OutputError.of(target, e);
    });
    return await fill(dir);
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    unregister();
  }
}

const FLUSH_AT = 1 << 20;
const LARGE_PART = 1 << 16;

/**
 * Watches the streams of an output: the first error (or a close before the end) rejects `failed`,
 * so that no wait on the output (a drain, the close) outlives its failure. A stream that errored
 * never drains: awaiting "drain" alone left a promise that never settled, the event loop emptied,
 * and Node exited 0 with the output unwritten.
 */
class OutputWatch {
  error: Error | undefined;
  readonly failed: Promise<never>;
  private fail!: (e: Error) => void;
  private readonly detach: (() => void)[] = [];

  constructor(
    private readonly target: string,
    streams: readonly NodeJS.EventEmitter[],
  ) {
    this.failed = new Promise<never>((_, reject) => {
      this.fail = reject;
    });
    this.failed.catch(() => {}); // observed by whoever awaits it; never an unhandled rejection
    for (const s of streams) {
      const onError = (e: Error) => this.onError(e);
      s.on("error", onError);
      this.detach.push(() => s.off("error", onError));
    }
  }

  onError(e: Error): void {
    if (this.error) return;
    this.error = OutputError.of(this.target, e);
    this.fail(this.error);
  }

  /** Throws the output's failure, if any. */
  check(): void {
    if (this.error) throw this.error;
  }

  /** Waits for `p` unless the output fails first. */
  async race<T>(p: Promise<T>): Promise<T> {
    this.check();
    return await Promise.race([p, this.failed]);
  }

  dispose(): void {
    for (const d of this.detach) d();
  }
}

class StreamSink implements ByteSink {
  private parts: (string | Uint8Array)[] = [];
  private releases: ((() => void) | undefined)[] = [];
  private size = 0;
  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly watch: OutputWatch,
  ) {}

  async write(data: string | Uint8Array, release?: () => void): Promise<void> {
    this.watch.check();
    this.parts.push(data);
    this.releases.push(release);
    this.size += data.length;
    if (this.size >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
    this.watch.check();
    if (this.parts.length === 0) return;
    const { parts, releases } = this;
    this.parts = [];
    this.releases = [];
    this.size = 0;
    // Large parts go out as they are (a file stream hands writes queued together to one writev)
    // and are released once written; runs of small parts are joined, and released at once.
    let ok = true;
    let run: Buffer[] = [];
    let runReleases: (() => void)[] = [];
    const writeRun = () => {
      if (run.length === 0) return;
      ok = this.out.write(Buffer.concat(run));
      for (const r of runReleases) r();
      run = [];
      runReleases = [];
    };
    for (const [i, p] of parts.entries()) {
      const release = releases[i];
      if (p.length >= LARGE_PART) {
        writeRun();
        ok = this.out.write(p, release);
      } else {
        run.push(typeof p === "string" ? Buffer.from(p) : (p as Buffer));
        if (release) runReleases.push(release);
      }
    }
    writeRun();
    if (!ok) await this.watch.race(new Promise<void>((r) => this.out.once("drain", () => r())));
    this.watch.check();
  }
}

/** Options for {@link writeAtomic}. */
export interface WriteOptions {
  /** gzip the bytes on the way out. */
  gzip?: boolean;
}

/**
 * Runs `fill` against a sink for `target` (`-` = stdout). The data goes to a temp file beside the
 * target that is renamed over it only when `fill` succeeds; on failure it is removed. The path is
 * checked first (a folder there, a read-only folder: one line before any work), stale temp files
 * of earlier writes of it are removed, and every write and the close are checked: a failure of
 * the output is an {@link OutputError} (`cannot write PATH: no space left on device`).
 */
export async function writeAtomic(
  target: string,
  fill: (sink: ByteSink) => Promise<void>,
  options: WriteOptions = {},
): Promise<void> {
  if (target === "-") {
    const out = stdoutStream();
    const watch = new OutputWatch("-", [out]);
    try {
      const sink = new StreamSink(out, watch);
      await fill(sink);
      await sink.flush();
      if (out !== process.stdout) await watch.race(new Promise<void>((r) => out.end(() => r())));
      watch.check();
    } finally {
      watch.dispose();
    }
    return;
  }
  await checkOutputPath(target);
  // Absolute, as withOutputDir's: mkdir answers the first folder it made in the form it was given,
  // and the removal (up to that folder) compares paths in one form.
  const folder = await makeFolder(dirname(resolve(target)), target);
  await removeStaleTemps(target);
  const tmp = tempPathFor(target);
  const unregister = registerTemp(tmp);
  const file = createWriteStream(tmp);
  const gz = options.gzip ? createGzip() : undefined;
  const watch = new OutputWatch(target, gz ? [file, gz] : [file]);
  let head: NodeJS.WritableStream = file;
  if (gz) {
    gz.pipe(file);
    head = gz;
  }
  try {
    await watch.race(new Promise<void>((res) => file.once("open", () => res())));
    const sink = new StreamSink(head, watch);
    await fill(sink);
    await sink.flush();
    await watch.race(closeStream(head, gz ? file : undefined));
    watch.check();
    await rename(tmp, target).catch((e) => {
      throw OutputError.of(target, e);
    });
    unregister();
  } catch (e) {
    file.destroy();
    gz?.destroy();
    await unlink(tmp).catch(() => {});
    unregister();
    await folder.removeIfEmpty();
    throw e;
  } finally {
    watch.dispose();
    folder.settled();
  }
}

/**
 * The folders a failed write made for its target, removed while empty, from the target's folder up
 * to the first one it made (a folder another output has since written into stays).
 */
async function removeEmptyDirs(dir: string, upTo: string): Promise<void> {
  for (let d = dir; ; d = dirname(d)) {
    if (
      !(await rmdir(d).then(
        () => true,
        () => false,
      ))
    )
      return;
    if (d === upTo || dirname(d) === d) return;
  }
}

/**
 * The stream stdout is written through. Stdout redirected to a regular file is Node's
 * SyncWriteStream, which ignores a short write(2): on a nearly full disk the first write stores
 * what fits, returns fewer bytes, and the rest is dropped without an error (exit 0, output cut at
 * a page boundary). For a file, a stream that writes until every byte is out, so that the next
 * write(2) reports ENOSPC; pipes and terminals keep process.stdout (libuv writes them whole).
 */
function stdoutStream(): NodeJS.WritableStream {
  let isFile = false;
  try {
    isFile = fstatSync(1).isFile();
  } catch {
    // no fd 1: process.stdout reports it
  }
  if (!isFile) return process.stdout;
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      try {
        for (let at = 0; at < chunk.length; ) at += writeSync(1, chunk, at, chunk.length - at);
        done();
      } catch (e) {
        done(asError(e));
      }
    },
  });
}

/** Resolves once the last stream of the chain has closed (its fd closed: every byte written). */
function closeStream(head: NodeJS.WritableStream, file?: WriteStream): Promise<void> {
  const last = (file ?? head) as WriteStream;
  return new Promise((res) => {
    last.once("close", () => res());
    head.end();
  });
}

/** Writes `data` to stdout through the checked sink: a failing stdout is one line, exit 1 (a closed pipe: quiet, exit 0). */
export async function writeStdout(data: string | Uint8Array): Promise<void> {
  await writeAtomic("-", (sink) => sink.write(data));
}

/** Writes batches of records as JSON Lines (one `JSON.stringify` per record, one write per batch). */
export async function writeJsonl<T>(
  target: string,
  batches: AsyncIterable<readonly T[]> | Iterable<readonly T[]>,
  options: WriteOptions = {},
): Promise<number> {
  let n = 0;
  await writeAtomic(
    target,
    async (sink) => {
      for await (const batch of batches) {
        if (batch.length === 0) continue;
        let s = "";
        for (const r of batch) s += `${JSON.stringify(r)}\n`;
        n += batch.length;
        await sink.write(s);
      }
    },
    options,
  );
  return n;
}
