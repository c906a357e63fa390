// The scan kernel's compile (@convkit/wasm's toolchain), shared by wasm/build.mjs and its freshness test.

/** wasm/dict-items.ts with wasm/shared.ts's constants, as compileModule of @convkit/wasm/compile takes it. */
export const DICT_ITEMS = {
  dir: new URL(".", import.meta.url),
  entry: "dict-items.ts",
  sharedConstants: "shared.ts",
  exportName: "DICT_ITEMS_WASM",
  extraAscArgs: ["--initialMemory", "1"],
};

/** Where the compiled kernel is committed. */
export const DICT_ITEMS_GENERATED = new URL("../src/dict-items-wasm.ts", import.meta.url);
