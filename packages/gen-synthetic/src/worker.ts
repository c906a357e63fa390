// Pool worker: one task's records encoded to JSON Lines bytes, handed back by transfer.

import { ByteBuilder } from "@convkit/io";
import { taskWorker } from "@convkit/pool";
import { move } from "piscina";
import { JsonStrings } from "./encode.js";
import { type RecordTask, taskJsonl } from "./generate.js";

const strings = new JsonStrings();
const builder = new ByteBuilder();

/** Encodes a task; the bytes move to the main thread without a copy. */
export default taskWorker(
  (task: RecordTask): Uint8Array => move(taskJsonl(task, strings, builder)) as Uint8Array,
);
