#!/usr/bin/env node
// Alias of `convkit worker`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "worker");
