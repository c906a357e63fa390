#!/usr/bin/env node
// Runs the built CLI (`pnpm build` first), bundled into one file: it starts faster.
import { main } from "../dist/bin.bundle.js";

main(process.argv.slice(2));
