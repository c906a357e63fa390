// A synthetic set as plain JSONL: a pickle (ClariQ's or gen:synthetic's, plain or in a tar.gz) or a compressed JSONL written out.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { basename, join } from "node:path";
import { finished, pipeline } from "node:stream/promises";
import { syntheticRecords } from "@convkit/formats";
import { capBytes, openPayload, peek } from "@convkit/io";
import { readPickle } from "@convkit/pickle";

/**
 * Writes `path`'s records as plain JSONL into `dir` (the index needs byte offsets into plain
 * lines); returns that file and the input's name as errors give it (a tar member's included).
 */
export async function plainJsonl(path: string, dir: string): Promise<{ plain: string; name: string }> {
  const plain = join(dir, `${basename(path).replace(/(\.pkl|\.jsonl)?(\.tar)?(\.gz|\.bz2)?$/, "")}.jsonl`);
  const src = await openPayload(path);
  const { head: first, rest } = await peek(src.chunks, 1);
  if (first[0] === 0x80) {
    // Unpacked to memory or disk: no more than the whole-input cap (a bomb stops there).
    const records = syntheticRecords(
      src.name,
      await readPickle({ name: src.name, chunks: capBytes(src.name, rest) }),
    );
    const out = createWriteStream(plain);
    for (const r of records) {
      if (!out.write(`${JSON.stringify(r)}\n`)) await once(out, "drain");
    }
    out.end();
    await finished(out);
  } else await pipeline(capBytes(src.name, rest), createWriteStream(plain));
  return { plain, name: src.name };
}
