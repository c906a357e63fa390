// Tar archives (tar-stream): entries as byte streams, safe extraction, and "the payload of a maybe-archived file".
import { createReadStream } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, normalize, relative, sep } from "node:path";
import { Readable } from "node:stream";
import { InputError, messageOf } from "./errors.js";
import { inputLimits, inputTooLarge } from "./limits.js";
import { writeAtomic } from "./sink.js";
import { type ByteSource, looksLikeTar, openInput, peek } from "./source.js";

/** One member of a tar archive; `chunks` must be consumed (or drained) before the next entry is read. */
export interface TarEntry {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  readonly chunks: AsyncIterable<Uint8Array>;
}

/** Rejects member names that would land outside the extraction folder. */
export function assertSafeMemberName(archive: string, name: string): void {
  const norm = normalize(name);
  if (
    isAbsolute(name) ||
    norm === ".." ||
    norm.startsWith(`..${sep}`) ||
    name.split(/[\\/]/).includes("..")
  ) {
    throw new InputError(
      archive,
      {},
      "tar member paths inside the archive",
      `member ${JSON.stringify(name)}`,
    );
  }
}

/** Streams the entries of an (already decompressed) tar archive. */
export async function* tarEntries(source: ByteSource): AsyncIterable<TarEntry> {
  // Loaded on first use: most commands never open an archive, and startup time counts.
  const { default: tar } = await import("tar-stream");
  const extract = tar.extract();
  const input = Readable.from(source.chunks, { objectMode: false });
  input.on("error", (e) => extract.destroy(e));
  input.pipe(extract);
  try {
    for await (const entry of extract) {
      const h = entry.header;
      assertSafeMemberName(source.name, h.name);
      yield {
        name: h.name,
        size: h.size ?? 0,
        type: h.type ?? "file",
        chunks: entry as AsyncIterable<Uint8Array>,
      };
      entry.resume();
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(source.name, {}, "a valid tar archive", messageOf(e));
  } finally {
    input.destroy();
  }
}

/**
 * The content of a file that may be wrapped: gzip/bzip2 are undone by content, and a tar archive
 * yields its first regular member (or the member named `member`). ClariQ ships `x.pkl`,
 * `x.pkl.tar.gz` and split `x.pkl.tar.gz.aa/.ab`; all of them read the same through this.
 */
export async function openPayload(path: string, member?: string): Promise<ByteSource> {
  const src = await openInput(path);
  const { head, rest } = await peek(src.chunks, 512);
  const whole: ByteSource = { name: src.name, chunks: rest };
  if (!looksLikeTar(head)) return whole;
  // The usual case, a regular file first, is read straight off the stream: tar-stream's chain of
  // small-buffered streams held back the decompression feeding it (a 40 MB pickle came at half speed).
  const first = plainFileHeader(head);
  if (first && (member === undefined || first.name === member)) {
    assertSafeMemberName(src.name, first.name);
    return { name: `${src.name}!${first.name}`, chunks: memberBytes(src.name, rest, first.size) };
  }
  const it = tarEntries(whole)[Symbol.asyncIterator]();
  for (let r = await it.next(); !r.done; r = await it.next()) {
    const e = r.value;
    if (e.type !== "file" || (member !== undefined && e.name !== member)) {
      for await (const _ of e.chunks) void _;
      continue;
    }
    async function* body(): AsyncIterable<Uint8Array> {
      try {
        yield* e.chunks;
      } finally {
        await it.return?.();
      }
    }
    return { name: `${src.name}!${e.name}`, chunks: body() };
  }
  throw new InputError(
    src.name,
    {},
    member ? `a member named ${member}` : "a regular file in the archive",
    "none",
  );
}

/** An octal number field of a tar header; undefined for anything else (e.g. GNU base-256). */
function octalField(h: Uint8Array, at: number, len: number): number | undefined {
  let n = 0;
  let digits = 0;
  for (let i = at; i < at + len; i++) {
    const c = h[i]!;
    if (c >= 0x30 && c <= 0x37) {
      n = n * 8 + (c - 0x30);
      digits++;
    } else if (c === 0 || c === 0x20) {
      if (digits > 0) break;
    } else return undefined;
  }
  return digits > 0 ? n : undefined;
}

/**
 * The name and size of a tar header block that describes a regular file, with a valid checksum;
 * undefined for any other entry (directories, pax or GNU long-name headers...), which tar-stream
 * then reads.
 */
function plainFileHeader(h: Uint8Array): { name: string; size: number } | undefined {
  if (h.length < 512 || (h[156] !== 0x30 && h[156] !== 0)) return undefined;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  const size = octalField(h, 124, 12);
  if (octalField(h, 148, 8) !== sum || size === undefined) return undefined;
  const text = (at: number, len: number) => {
    let end = at;
    while (end < at + len && h[end] !== 0) end++;
    return Buffer.from(h.buffer, h.byteOffset + at, end - at).toString("utf8");
  };
  const name = text(0, 100);
  const prefix = text(345, 155);
  if (name === "") return undefined;
  return { name: prefix ? `${prefix}/${name}` : name, size };
}

/** The `size` bytes after the 512-byte header of a stream; the rest of the stream is read through (and so checked). */
async function* memberBytes(
  name: string,
  chunks: AsyncIterable<Uint8Array>,
  size: number,
): AsyncIterable<Uint8Array> {
  let pos = 0; // stream offset of the chunk's start
  const from = 512;
  const to = 512 + size;
  for await (const c of chunks) {
    const a = Math.max(from, pos);
    const b = Math.min(to, pos + c.length);
    if (b > a) yield c.subarray(a - pos, b - pos);
    pos += c.length;
  }
  if (pos < to)
    throw new InputError(name, { offset: pos }, `the ${size} bytes of the archive's member`, "end of file");
}

/**
 * Extracts a tar(.gz) archive into `dir`; no member can write outside it; each file appears
 * atomically. More than the whole-input cap ({@link inputLimits}) unpacked is an {@link InputError}.
 */
export async function extractTar(path: string, dir: string): Promise<string[]> {
  const src = await openInput(path);
  const written: string[] = [];
  const max = inputLimits().wholeBytes;
  let total = 0;
  for await (const e of tarEntries(src)) {
    const target = join(dir, e.name);
    if (relative(dir, target).startsWith(".."))
      throw new InputError(src.name, {}, "member paths inside the archive", e.name);
    if (e.type === "directory") {
      await mkdir(target, { recursive: true });
      continue;
    }
    if (e.type !== "file") {
      // Links and devices could point outside the folder: never materialize them.
      for await (const _ of e.chunks) void _;
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeAtomic(target, async (sink) => {
      for await (const c of e.chunks) {
        total += c.length;
        if (total > max) throw inputTooLarge(src.name, total, max);
        await sink.write(c);
      }
    });
    written.push(target);
  }
  return written;
}

/** Packs one file into a tar.gz as its only member (the name upstream's archives use), streaming. */
export async function tarGzFile(file: string, target: string): Promise<void> {
  const { default: tar } = await import("tar-stream");
  const size = (await stat(file)).size;
  await writeAtomic(
    target,
    async (sink) => {
      const pack = tar.pack();
      const entry = pack.entry({ name: basename(file), size, mtime: new Date(0), mode: 0o644 });
      const feeding = (async () => {
        for await (const c of createReadStream(file)) {
          if (!entry.write(c)) await new Promise<void>((r) => entry.once("drain", () => r()));
        }
        (entry as unknown as { end(): void }).end();
        pack.finalize();
      })();
      for await (const c of pack) await sink.write(c as Uint8Array);
      await feeding;
    },
    { gzip: true },
  );
}
