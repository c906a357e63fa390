#!/usr/bin/env node
// Alias of `convkit data`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "data");
