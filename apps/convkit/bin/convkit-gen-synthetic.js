#!/usr/bin/env node
// Alias of `convkit gen-synthetic`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "gen-synthetic");
