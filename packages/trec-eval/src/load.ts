// Runs and qrels files into the maps the measures take (trec_eval's reading; duplicate judgments
// refused): the plain reference of the byte path (qrels-bytes.ts, run-bytes.ts). `source`: bytes
// already read (stdin), read instead of opening `path`.
import { readQrels, readRun } from "@convkit/formats";
import { type ByteSource, InputError } from "@convkit/io";
import type { Scored } from "./judged-ranking.js";

/** A qrels file as qid → docno → grade. */
export async function loadQrels(
  path: string,
  source?: ByteSource,
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  for await (const batch of readQrels(path, { trecEval: true, source })) {
    for (const q of batch) {
      let m = out.get(q.qid);
      if (!m) {
        m = new Map();
        out.set(q.qid, m);
      }
      if (m.has(q.docno))
        throw new InputError(
          path,
          {},
          `each document judged once per topic (topic ${q.qid})`,
          `duplicate docs ${q.docno}`,
        );
      m.set(q.docno, q.rel);
    }
  }
  return out;
}

/** A run file as qid → scored documents (file order; trec_eval sorts them itself). */
export async function loadRun(
  path: string,
  source?: ByteSource,
): Promise<{ run: Map<string, Scored[]>; tag: string | undefined }> {
  const run = new Map<string, Scored[]>();
  let tag: string | undefined;
  for await (const batch of readRun(path, { trecEval: true, source })) {
    for (const e of batch) {
      tag ??= e.tag;
      let l = run.get(e.qid);
      if (!l) {
        l = [];
        run.set(e.qid, l);
      }
      l.push({ docno: e.docno, score: e.score });
    }
  }
  return { run, tag };
}
