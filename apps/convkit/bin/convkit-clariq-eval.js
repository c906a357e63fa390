#!/usr/bin/env node
// Alias of `convkit clariq-eval`.
// Node 22.1+ keeps V8's compiled bundle in its compile cache (faster start-up); Node 20 has none.
import module from "node:module";

module.enableCompileCache?.();
const { run } = await import("../dist/convkit.js");

run(process.argv.slice(2), "clariq-eval");
