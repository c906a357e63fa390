#!/usr/bin/env node
// Alias of `convkit queue`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "queue");
