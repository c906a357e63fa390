// Page compression: zstd through one WebAssembly build on every Node (the same bytes on Node 20,
// which has no zstd in node:zlib, as on 24 and 26), snappy through hyparquet-writer's own.
import { compress, init } from "@bokuweb/zstd-wasm";

/** The codecs convkit writes. */
export type Codec = "zstd" | "snappy" | "none";
export const CODECS: readonly Codec[] = ["zstd", "snappy", "none"];

/** zstd's own default level (pyarrow writes level 1; 3 is smaller at little cost). */
const ZSTD_LEVEL = 3;

let ready: Promise<void> | undefined;

/** The compressors a codec needs (the WebAssembly is instantiated once, on first use). */
export async function compressorsFor(codec: Codec): Promise<{ ZSTD?: (input: Uint8Array) => Uint8Array }> {
  if (codec !== "zstd") return {};
  ready ??= init();
  await ready;
  return { ZSTD: (input: Uint8Array) => compress(input, ZSTD_LEVEL) };
}
