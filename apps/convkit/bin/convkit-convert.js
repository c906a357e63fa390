#!/usr/bin/env node
// Alias of `convkit convert`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "convert");
