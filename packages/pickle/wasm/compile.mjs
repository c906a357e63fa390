// The AssemblyScript compile of the scan kernel, shared by wasm/build.mjs and its freshness test.
import asc from "assemblyscript/asc";

/** The bytes of wasm/dict-items.ts compiled as src/dict-items-wasm.ts holds them. */
export async function compileDictItems() {
  let bytes;
  const { error, stderr } = await asc.main(
    [
      "dict-items.ts",
      "--outFile",
      "dict-items.wasm",
      "-O3",
      "--runtime",
      "stub",
      "--noAssert",
      "--use",
      "abort=",
      "--initialMemory",
      "1",
    ],
    {
      readFile: async (name, dir) => {
        const { readFile } = await import("node:fs/promises");
        const { join } = await import("node:path");
        try {
          return await readFile(
            join(dir === "." ? new URL(".", import.meta.url).pathname : dir, name),
            "utf8",
          );
        } catch {
          return null;
        }
      },
      writeFile: (name, contents) => {
        if (name.endsWith(".wasm")) bytes = contents;
      },
      listFiles: () => [],
    },
  );
  if (error) throw new Error(`asc: ${error.message}\n${stderr.toString()}`);
  return bytes;
}
