// The WebAssembly runtime of every convkit kernel: the repo's one set of WebAssembly typings, a
// committed module (base64, as compile.mjs writes it) compiled once per thread, and probes.
//
// Kernels are AssemblyScript compiled ahead of time (compile.mjs) with WebAssembly 2.0 features
// only (SIMD included, relaxed SIMD not): Node 20.19+, 24 and 26 run them as they are, with no V8
// flag set at run time.

// Node's WebAssembly, as much of it as the kernels use (the `lib` the repo compiles against leaves
// out the DOM typings that declare it). Module-scoped: it declares nothing global for importers.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports: Record<string, never>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  function validate(bytes: Uint8Array): boolean;
}

/** A compiled WebAssembly module. */
export type WasmModule = WebAssembly.Module;
/** A kernel's linear memory: growing it detaches every view of its `buffer`. */
export type WasmMemory = WebAssembly.Memory;

/** Bytes in a page of WebAssembly memory (what `WasmMemory.grow` counts). */
export const WASM_PAGE = 65536;

/** One instance of a kernel: its exported functions, typed by the caller, and its memory. */
export interface WasmKernel<Exports> {
  readonly exports: Exports;
  readonly memory: WasmMemory;
}

/**
 * A committed kernel's instantiator: `base64` (a generated `src/<name>-wasm.ts` export) is decoded
 * and compiled on the first call in a thread, then kept; each call makes a fresh instance (its own
 * memory) of that one compiled module. The module imports nothing and exports its memory as
 * `memory` (AssemblyScript's default); `Exports` types the functions the caller uses.
 */
export function committedModule<Exports>(base64: string): () => WasmKernel<Exports> {
  let compiled: WasmModule | undefined;
  return () => {
    compiled ??= new WebAssembly.Module(Buffer.from(base64, "base64"));
    const { exports } = new WebAssembly.Instance(compiled, {});
    const memory = exports.memory;
    if (!(memory instanceof WebAssembly.Memory)) throw new Error("the WebAssembly module exports no memory");
    return { exports: exports as Exports, memory };
  };
}

/**
 * Grows `memory` to hold at least `bytes`, by half its size at least: true when it grew (every view
 * of its old buffer is detached then: take them again). Each growth is a new buffer, which V8's
 * garbage collector counts as external memory pressure: growing a page at a time as a kernel's
 * needs creep up set off a major collection every few growths.
 */
export function growMemory(memory: WasmMemory, bytes: number): boolean {
  const have = memory.buffer.byteLength;
  if (bytes <= have) return false;
  memory.grow(Math.max(Math.ceil((bytes - have) / WASM_PAGE), Math.floor(have / WASM_PAGE / 2)));
  return true;
}

// (func (drop (f32x4.splat (f32.const 0)))), the smallest module with a SIMD instruction: header,
// types (() -> ()), functions (one of type 0), code.
const SIMD_PROBE = "0061736d01000000" + "010401600000" + "03020100" + "0a0c010a004300000000fd131a0b";
let simd: boolean | undefined;

/**
 * Whether this runtime validates WebAssembly SIMD (fixed-width, 128-bit). Every Node convkit
 * supports does (20.19+, 24, 26: V8 has shipped it since Node 16.4); a kernel that needs it
 * still checks, and falls back to its plain JavaScript reference when false.
 */
export function simdSupported(): boolean {
  simd ??= WebAssembly.validate(Buffer.from(SIMD_PROBE, "hex"));
  return simd;
}
