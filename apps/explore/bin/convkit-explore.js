#!/usr/bin/env node
// Runs the built CLI (`pnpm build` first).
import { main } from "../dist/bin.js";

main(process.argv.slice(2));
