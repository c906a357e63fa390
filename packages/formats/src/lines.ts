// Record batches written as lines, atomically: the writer every line-based format uses (ClariQ runs,
// TREC runs and qrels, TREC-web, iKAT passages and hashes), in a module of its own so that the
// format modules import it and not each other.
import { type WriteOptions, writeAtomic } from "@convkit/io";

/** Maps the records of each batch. */
export async function* mapBatches<T, U>(
  batches: AsyncIterable<readonly T[]> | Iterable<readonly T[]>,
  f: (x: T) => U,
): AsyncIterable<U[]> {
  for await (const b of batches) yield b.map(f);
}

/** Writes one line per record, atomically. */
export async function writeLines<T>(
  target: string,
  batches: AsyncIterable<readonly T[]> | Iterable<readonly T[]>,
  line: (x: T) => string,
  options?: WriteOptions,
): Promise<number> {
  let n = 0;
  await writeAtomic(
    target,
    async (sink) => {
      for await (const b of batches) {
        let s = "";
        for (const x of b) s += `${line(x)}\n`;
        n += b.length;
        await sink.write(s);
      }
    },
    options,
  );
  return n;
}
