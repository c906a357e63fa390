// Writes src/dict-items-wasm.ts: wasm/dict-items.ts (AssemblyScript) compiled, as base64, with the
// constants of wasm/shared.ts that the JavaScript side shares: one source file that tsc, vitest
// and esbuild bundles all load without a loader. Run it after editing either; the freshness test
// (dict-items-wasm.test.ts) checks that the committed module is current.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dictItemsModule } from "./compile.mjs";

const out = fileURLToPath(new URL("../src/dict-items-wasm.ts", import.meta.url));
const text = await dictItemsModule();
writeFileSync(out, text);
console.log(`${out}: ${text.length} characters`);
