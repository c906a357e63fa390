#!/usr/bin/env node
// Alias of `convkit clariq-eval`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "clariq-eval");
