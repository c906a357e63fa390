#!/usr/bin/env node
// Alias of `convkit touche`.
import { run } from "../dist/convkit.js";

run(process.argv.slice(2), "touche");
