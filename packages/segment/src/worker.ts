// Piscina worker: one batch of documents segmented and encoded.
import { errorForThread } from "@convkit/io";
import { move, transferableSymbol, valueSymbol } from "piscina";
import { encodeSegmentTask, type SegmentResult, type SegmentTask } from "./encode.js";

/** Encodes a batch; the encoded bytes are moved to the main thread, not copied. Bad input crosses back as an InputError. */
export default function run(task: SegmentTask): unknown {
  let r: SegmentResult;
  try {
    r = encodeSegmentTask(task);
  } catch (e) {
    throw errorForThread(e);
  }
  return move({
    [transferableSymbol]: [r.jsonl.buffer, r.hashes.buffer, r.trecweb.buffer],
    [valueSymbol]: r,
  } as never);
}
