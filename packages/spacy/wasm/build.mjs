// Writes src/senter-wasm.ts: wasm/senter.ts (AssemblyScript) compiled, as base64, with the
// constants of wasm/shared.ts that the JavaScript side shares. Run it (`pnpm --filter
// @convkit/spacy build:wasm`) after editing either; the freshness test (senter-wasm.test.ts)
// checks that the committed module is current.
import { writeModule } from "@convkit/wasm/compile";
import { SENTER, SENTER_GENERATED } from "./compile.mjs";

await writeModule(SENTER_GENERATED, SENTER);
