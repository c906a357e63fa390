#!/usr/bin/env node
// Alias of `convkit explore`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "explore");
