// Output: buffered byte sinks that appear atomically (temp file in the target folder, rename on success).
import { createWriteStream, unlinkSync, type WriteStream } from "node:fs";
import { mkdir, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { createGzip } from "node:zlib";

/**
 * A buffered writer; `write` resolves once the data is accepted (backpressure respected).
 * `release`, when given, is called once the sink is done with the bytes of `data` (written out
 * or copied), so that their buffer can be reused.
 */
export interface ByteSink {
  write(data: string | Uint8Array, release?: () => void): Promise<void>;
}

const pending = new Set<string>();

/** Removes temp files of writes still in progress (called on SIGINT/SIGTERM by the CLIs). */
export function removePendingTempFiles(): void {
  for (const p of pending) {
    try {
      unlinkSync(p);
    } catch {
      // already gone
    }
  }
  pending.clear();
}

const FLUSH_AT = 1 << 20;
const LARGE_PART = 1 << 16;

class StreamSink implements ByteSink {
  private parts: (string | Uint8Array)[] = [];
  private releases: ((() => void) | undefined)[] = [];
  private size = 0;
  constructor(private readonly out: NodeJS.WritableStream) {}

  async write(data: string | Uint8Array, release?: () => void): Promise<void> {
    this.parts.push(data);
    this.releases.push(release);
    this.size += data.length;
    if (this.size >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
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
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
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
    if (!ok) await new Promise<void>((r) => this.out.once("drain", () => r()));
  }
}

/** Options for {@link writeAtomic}. */
export interface WriteOptions {
  /** gzip the bytes on the way out. */
  gzip?: boolean;
}

/**
 * Runs `fill` against a sink for `target` (`-` = stdout). The data goes to a temp file beside the
 * target that is renamed over it only when `fill` succeeds; on failure it is removed.
 */
export async function writeAtomic(
  target: string,
  fill: (sink: ByteSink) => Promise<void>,
  options: WriteOptions = {},
): Promise<void> {
  if (target === "-") {
    const sink = new StreamSink(process.stdout);
    await fill(sink);
    await sink.flush();
    return;
  }
  await mkdir(dirname(target), { recursive: true });
  const tmp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`,
  );
  pending.add(tmp);
  const file = createWriteStream(tmp);
  const opened = new Promise<void>((res, rej) => {
    file.once("open", () => res());
    file.once("error", rej);
  });
  let errored: Error | undefined;
  file.on("error", (e) => {
    errored = e;
  });
  let head: NodeJS.WritableStream = file;
  const gz = options.gzip ? createGzip() : undefined;
  if (gz) {
    gz.pipe(file);
    head = gz;
  }
  try {
    await opened;
    const sink = new StreamSink(head);
    await fill(sink);
    await sink.flush();
    await closeStream(head, gz ? file : undefined);
    if (errored) throw errored;
    await rename(tmp, target);
    pending.delete(tmp);
  } catch (e) {
    file.destroy();
    await unlink(tmp).catch(() => {});
    pending.delete(tmp);
    throw e;
  }
}

function closeStream(head: NodeJS.WritableStream, file?: WriteStream): Promise<void> {
  const last = (file ?? head) as WriteStream;
  return new Promise((res, rej) => {
    last.once("close", () => res());
    last.once("error", rej);
    head.end();
  });
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
