// Random access to the lines of a big file through an index of byte offsets built in one pass.
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { InputError, inputLimits, lineTooLong, throwIfParquet } from "@convkit/io";
import { tryParseJson } from "@convkit/json";

/**
 * The byte offsets of every line of a file (the last may lack its newline), built by one
 * streaming pass that also hands each line's bytes to `onLine` (for what the caller keeps).
 * The file stays on disk: {@link LineFile.read} reads the lines a page needs.
 */
export class LineFile {
  private constructor(
    readonly path: string,
    /** Start of line i at starts[i]; starts[count] is the file's length. */
    private readonly starts: Float64Array,
    readonly count: number,
  ) {}

  static async index(path: string, onLine?: (line: Buffer, index: number) => void): Promise<LineFile> {
    let starts = new Float64Array(1 << 16);
    let count = 0;
    let pos = 0;
    // The bytes of a line that spans reads, as a list joined once its end comes (copied once, not
    // once per read); no longer than the line cap.
    let carry: Buffer[] = [];
    let carryBytes = 0;
    const max = inputLimits().lineBytes;
    const push = (start: number) => {
      if (count + 1 >= starts.length) {
        const grown = new Float64Array(starts.length * 2);
        grown.set(starts);
        starts = grown;
      }
      starts[count++] = start;
    };
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      let from = 0;
      for (;;) {
        const nl = chunk.indexOf(10, from);
        if (carryBytes + (nl < 0 ? chunk.length : nl) - from > max)
          throw lineTooLong(path, { offset: pos + from - carryBytes }, max);
        if (nl < 0) break;
        const line =
          carryBytes > 0 ? Buffer.concat([...carry, chunk.subarray(from, nl)]) : chunk.subarray(from, nl);
        const start = pos + from - carryBytes;
        carry = [];
        carryBytes = 0;
        if (line.length > 0) {
          push(start);
          onLine?.(line, count - 1);
        }
        from = nl + 1;
      }
      if (from < chunk.length) {
        carry.push(chunk.subarray(from));
        carryBytes += chunk.length - from;
      }
      pos += chunk.length;
    }
    if (carryBytes > 0) {
      push(pos - carryBytes);
      onLine?.(Buffer.concat(carry), count - 1);
    }
    // Each line's end: the next line's start minus its newline, or the file's end.
    const ends = new Float64Array(count + 1);
    ends.set(starts.subarray(0, count));
    ends[count] = pos;
    return new LineFile(path, ends, count);
  }

  /** Lines `from` to `to` (exclusive), as strings without their newlines. */
  async read(from: number, to: number): Promise<string[]> {
    const a = Math.max(0, from);
    const b = Math.min(this.count, to);
    if (b <= a) return [];
    const start = this.starts[a]!;
    const end = this.starts[b]!;
    const fh = await open(this.path, "r");
    try {
      const buf = Buffer.alloc(end - start);
      await fh.read(buf, 0, buf.length, start);
      const out: string[] = [];
      for (let i = a; i < b; i++) {
        let s = this.starts[i]! - start;
        let e = this.starts[i + 1]! - start;
        while (e > s && (buf[e - 1] === 10 || buf[e - 1] === 13)) e--;
        while (s < e && buf[s] === 10) s++;
        out.push(buf.toString("utf8", s, e));
      }
      return out;
    } finally {
      await fh.close();
    }
  }

  /** Line i parsed as JSON; a line that is not names the file and line. */
  async json(i: number): Promise<unknown> {
    const [text] = await this.read(i, i + 1);
    return parseLine(this.path, i, text ?? "");
  }
}

export function parseLine(path: string, index: number, text: string): unknown {
  const parsed = tryParseJson(text);
  if (parsed.ok) return parsed.value;
  if (index === 0) throwIfParquet(path, text);
  throw new InputError(path, { line: index + 1 }, "a JSON object per line", text.slice(0, 40));
}
