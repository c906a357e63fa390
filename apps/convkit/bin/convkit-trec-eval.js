#!/usr/bin/env node
// Alias of `convkit trec-eval`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "trec-eval");
