// Writes src/dict-items-wasm.ts: wasm/dict-items.ts (AssemblyScript) compiled, as base64, with the
// constants of wasm/shared.ts that the JavaScript side shares: one source file that tsc, vitest
// and esbuild bundles all load without a loader. Run it (`pnpm --filter @convkit/pickle build:wasm`)
// after editing either; the freshness test (dict-items-wasm.test.ts) checks that the committed
// module is current.
import { writeModule } from "@convkit/wasm/compile";
import { DICT_ITEMS, DICT_ITEMS_GENERATED } from "./compile.mjs";

await writeModule(DICT_ITEMS_GENERATED, DICT_ITEMS);
