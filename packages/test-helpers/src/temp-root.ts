// vitest setupFiles: a test file's temporary folders (its own, its child processes', Python's and Chromium's) all under one folder, removed when the file ends.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, inject } from "vitest";

// os.tmpdir() reads TMPDIR at each call, and child processes inherit it: tempDir(), mkdtemp in
// tests and whatever the commands under test, Python or a browser make lands here. Before this,
// every run left ~2 GB behind in /tmp until a CI machine's disk filled up and the suite failed.
const dir = mkdtempSync(join(inject("convkitTempRoot"), "file-"));
process.env.TMPDIR = dir;

// Registered before the file's own hooks, so it runs after them (vitest runs after-hooks as a
// stack): servers and child processes the file stops in its afterAll are gone by now.
afterAll(() => {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});
