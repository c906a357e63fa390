#!/usr/bin/env node
// Alias of `convkit baselines`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "baselines");
