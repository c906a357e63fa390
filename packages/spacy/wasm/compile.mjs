// The senter kernel's compile (@convkit/wasm's toolchain), shared by wasm/build.mjs and its freshness test.

/** wasm/senter.ts with wasm/shared.ts's constants, as compileModule of @convkit/wasm/compile takes it. */
export const SENTER = {
  dir: new URL(".", import.meta.url),
  entry: "senter.ts",
  sharedConstants: "shared.ts",
  exportName: "SENTER_WASM",
  // SIMD (every supported Node has it); no relaxed SIMD, whose rounding would depend on the CPU.
  extraAscArgs: ["--initialMemory", "1", "--enable", "simd"],
};

/** Where the compiled kernel is committed. */
export const SENTER_GENERATED = new URL("../src/senter-wasm.ts", import.meta.url);
