// Writes src/senter-wasm.ts and src/chunks-wasm.ts: each kernel (AssemblyScript in wasm/) compiled,
// as base64, with the constants of its shared file that the JavaScript side reads. Run it (`pnpm
// --filter @convkit/spacy build:wasm`) after editing a kernel; the freshness test
// (kernels-wasm.test.ts) checks that the committed modules are current.
import { writeModule } from "@convkit/wasm/compile";
import { KERNELS } from "./compile.mjs";

for (const { options, generated } of KERNELS) await writeModule(generated, options);
