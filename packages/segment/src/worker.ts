// Piscina worker: one batch of documents segmented and encoded.
import { encodeSegmentTask, type SegmentResult, type SegmentTask } from "./encode.js";

/** Encodes a batch. */
export default function run(task: SegmentTask): SegmentResult {
  return encodeSegmentTask(task);
}
