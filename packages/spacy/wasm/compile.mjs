// The package's kernels as @convkit/wasm's toolchain compiles them, shared by wasm/build.mjs and the
// freshness test (src/kernels-wasm.test.ts).

/** wasm/senter.ts with wasm/shared.ts's constants, as compileModule of @convkit/wasm/compile takes it. */
const SENTER = {
  dir: new URL(".", import.meta.url),
  entry: "senter.ts",
  sharedConstants: "shared.ts",
  exportName: "SENTER_WASM",
  // SIMD (every supported Node has it); no relaxed SIMD, whose rounding would depend on the CPU.
  extraAscArgs: ["--initialMemory", "1", "--enable", "simd"],
};

/** wasm/chunks.ts (the tokenizer's scan and chunk cache) with wasm/chunks-shared.ts's constants. */
const CHUNKS = {
  dir: new URL(".", import.meta.url),
  entry: "chunks.ts",
  sharedConstants: "chunks-shared.ts",
  exportName: "CHUNKS_WASM",
  extraAscArgs: ["--initialMemory", "1"],
};

/** Each kernel and where it is committed. */
export const KERNELS = [
  { options: SENTER, generated: new URL("../src/senter-wasm.ts", import.meta.url) },
  { options: CHUNKS, generated: new URL("../src/chunks-wasm.ts", import.meta.url) },
];
