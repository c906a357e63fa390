// Piscina worker: one task's records encoded to JSON Lines bytes, handed back by transfer.

import { ByteBuilder } from "@convkit/io";
import { move } from "piscina";
import { JsonStrings } from "./encode.js";
import { type RecordTask, taskJsonl } from "./generate.js";

const strings = new JsonStrings();
const builder = new ByteBuilder();

/** Encodes a task; the bytes move to the main thread without a copy. */
export default function encodeTask(task: RecordTask): Uint8Array {
  const bytes = taskJsonl(task, strings, builder);
  return move(bytes) as Uint8Array;
}
