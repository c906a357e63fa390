// Types of compile.mjs: convkit's WebAssembly build (AssemblyScript), for build scripts and tests.

/** One kernel's compile: the AssemblyScript `entry` in `dir` (a package's wasm/ folder). */
export interface CompileOptions {
  /** The kernel's folder (a path or file: URL): `entry`, `sharedConstants` and what they import. */
  dir: string | URL;
  /** The kernel's source file, in `dir` (e.g. "dict-items.ts"). */
  entry: string;
  /** A file in `dir` of `export const NAME: i32 = expression;` with doc comments, copied beside the module. */
  sharedConstants?: string;
  /** The name the generated file exports the base64 module as (e.g. "DICT_ITEMS_WASM"). */
  exportName: string;
  /** asc arguments after -O3 --runtime stub --noAssert --use abort= (e.g. ["--enable", "simd"]). */
  extraAscArgs?: string[];
}

/** The text of the generated src/<name>-wasm.ts: header, shared constants, the module as base64. */
export function compileModule(options: CompileOptions): Promise<string>;

/** Writes {@link compileModule}'s text to `generatedPath` (for a package's wasm/build.mjs). */
export function writeModule(generatedPath: string | URL, options: CompileOptions): Promise<void>;

/** In a vitest test: the committed `generatedPath` is, whole, what `options` compile to, and it validates. */
export function expectCommittedModuleFresh(
  generatedPath: string | URL,
  options: CompileOptions,
): Promise<void>;
