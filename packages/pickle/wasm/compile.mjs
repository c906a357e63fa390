// The AssemblyScript compile of the scan kernel, shared by wasm/build.mjs and its freshness test.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import asc from "assemblyscript/asc";

const HERE = fileURLToPath(new URL(".", import.meta.url));

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
      // Sources from this folder (asc's own library comes with it); the module kept in memory.
      readFile: (name, dir) => readFile(join(dir === "." ? HERE : dir, name), "utf8").catch(() => null),
      writeFile: (name, contents) => {
        if (name.endsWith(".wasm")) bytes = contents;
      },
      listFiles: () => [],
    },
  );
  if (error) throw new Error(`asc: ${error.message}\n${stderr.toString()}`);
  return bytes;
}
