// Piscina worker: one task's records encoded to JSON Lines bytes, handed back by transfer.
import { move } from "piscina";
import { encodeJsonl, JsonStrings } from "./encode.js";
import { type RecordTask, taskRecords } from "./generate.js";

const strings = new JsonStrings();

/** Encodes a task; the bytes move to the main thread without a copy. */
export default function encodeTask(task: RecordTask): Uint8Array {
  const bytes = Buffer.from(encodeJsonl(taskRecords(task), strings));
  return move(bytes) as Uint8Array;
}
