#!/usr/bin/env node
// Alias of `convkit compare`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "compare");
