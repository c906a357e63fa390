import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { senterModule } from "./compile.mjs";

const out = fileURLToPath(new URL("../src/senter-wasm.ts", import.meta.url));
const text = await senterModule();
writeFileSync(out, text);
console.log(`${out}: ${text.length} characters`);
