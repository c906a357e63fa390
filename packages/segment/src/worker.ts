// Piscina worker: one batch of documents segmented and encoded, or one batch of texts split into sentences.
import { taskWorker } from "@convkit/pool";
import { move, transferableSymbol, valueSymbol } from "piscina";
import { encodeSegmentTask, type SegmentTask } from "./encode.js";
import { encodeSentencesTask, type SentencesTask } from "./sentences.js";
import { loadSplitter } from "./splitters.js";

/** Encodes a batch; the encoded bytes are moved to the main thread, not copied. */
export default taskWorker(async (task: SegmentTask | SentencesTask): Promise<unknown> => {
  await loadSplitter(task.splitter, task.spacyModel, task.cacheShare);
  if ("kind" in task && task.kind === "sentences") {
    const r = encodeSentencesTask(task);
    return move({ [transferableSymbol]: [r.jsonl.buffer], [valueSymbol]: r } as never);
  }
  const r = encodeSegmentTask(task as SegmentTask);
  return move({
    [transferableSymbol]: [r.jsonl.buffer, r.hashes.buffer, r.trecweb.buffer],
    [valueSymbol]: r,
  } as never);
});
