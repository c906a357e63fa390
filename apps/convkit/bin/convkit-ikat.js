#!/usr/bin/env node
// Alias of `convkit ikat`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "ikat");
