// Piscina worker: one batch of documents segmented and encoded.
import { move, transferableSymbol, valueSymbol } from "piscina";
import { encodeSegmentTask, type SegmentResult, type SegmentTask } from "./encode.js";

/** A buffer with an ArrayBuffer of its own (small ones share Node's pool: those are copied). */
function owned(u: Uint8Array): Uint8Array {
  return u.byteOffset === 0 && u.byteLength === u.buffer.byteLength ? u : u.slice();
}

/** Encodes a batch; the encoded bytes are moved to the main thread, not copied. */
export default function run(task: SegmentTask): unknown {
  const r: SegmentResult = encodeSegmentTask(task);
  const out = { ...r, jsonl: owned(r.jsonl), hashes: owned(r.hashes), trecweb: owned(r.trecweb) };
  return move({
    [transferableSymbol]: [out.jsonl.buffer, out.hashes.buffer, out.trecweb.buffer],
    [valueSymbol]: out,
  } as never);
}
