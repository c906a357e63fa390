#!/usr/bin/env node
import { run } from "../dist/convkit.js";

run(process.argv.slice(2));
