#!/usr/bin/env node
// Alias of `convkit segment`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "segment");
