// Qulac's flavour on disk: qulac_hist012_dict.json (and JSONL, Parquet) from qulac.json alone.
import { join } from "node:path";
import {
  QULAC_HIST_RECORD_SCHEMA,
  type QulacHistRecord,
  readQulacJson,
  writeQulacHistDict,
} from "@convkit/formats";
import { writeJsonl } from "@convkit/io";
import { type Codec, writeParquet } from "@convkit/parquet";
import { qulacRecords, qulacTopics } from "@convkit/synthetic-plan";

/** Writes `qulac_hist012_dict.json` (the layout of Qulac's README) and/or its JSONL and Parquet. */
export async function writeQulacSet(
  qulacPath: string,
  o: {
    outDir: string;
    formats: readonly string[];
    gzip?: boolean;
    compression?: Codec;
    onRecords?: (n: number) => void;
  },
): Promise<{ records: number; files: string[] }> {
  const topics = qulacTopics(await readQulacJson(qulacPath));
  const batches = function* (): Iterable<QulacHistRecord[]> {
    let done = 0;
    for (const t of topics) {
      const b = [...qulacRecords(t)];
      done += b.length;
      o.onRecords?.(done);
      yield b;
    }
  };
  const files: string[] = [];
  let records = 0;
  const base = join(o.outDir, "qulac_hist012_dict");
  if (o.formats.includes("pickle") || o.formats.includes("json")) {
    records = await writeQulacHistDict(`${base}.json`, batches());
    files.push(`${base}.json`);
  }
  if (o.formats.includes("jsonl")) {
    records = await writeJsonl(`${base}.jsonl${o.gzip ? ".gz" : ""}`, batches(), { gzip: o.gzip === true });
    files.push(`${base}.jsonl${o.gzip ? ".gz" : ""}`);
  }
  if (o.formats.includes("parquet")) {
    records = await writeParquet(`${base}.parquet`, QULAC_HIST_RECORD_SCHEMA, batches(), {
      codec: o.compression,
    });
    files.push(`${base}.parquet`);
  }
  return { records, files };
}
