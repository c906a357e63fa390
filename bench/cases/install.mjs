// The `convkit` tarball as a user installs it: `npm install -g --prefix DIR convkit-X.Y.Z.tgz` into
// an empty prefix, with npm's cache warm (a user who installed anything before) or empty (a fresh
// machine: every dependency downloaded). Prints one JSON line: median seconds of each, the
// installed size and file count, and the tarball's size.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const RUNS = Number(process.argv[2] ?? 3);

function walk(dir) {
  let bytes = 0;
  let files = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const s = walk(p);
      bytes += s.bytes;
      files += s.files;
    } else if (e.isFile()) {
      bytes += statSync(p).size;
      files += 1;
    }
  }
  return { bytes, files };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const work = mkdtempSync(join(tmpdir(), "convkit-bench-install-"));
const packed = execFileSync("pnpm", ["pack", "--pack-destination", work], {
  cwd: join(ROOT, "apps", "convkit"),
  encoding: "utf8",
});
const tarball = packed.trim().split("\n").at(-1).trim();

function install(cache) {
  const prefix = mkdtempSync(join(work, "prefix-"));
  const args = ["install", "-g", "--prefix", prefix, "--no-fund", "--no-audit", tarball];
  if (cache) args.push("--cache", cache);
  const t0 = performance.now();
  const r = spawnSync("npm", args, { cwd: work, encoding: "utf8" });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`npm install failed: ${r.stderr}`);
  const bin = join(prefix, "lib", "node_modules", "convkit", "bin", "convkit.js");
  const v = spawnSync(process.execPath, [bin, "--version"], { cwd: tmpdir(), encoding: "utf8" });
  if (v.status !== 0) throw new Error(`convkit --version failed: ${v.stderr}`);
  return { seconds, prefix };
}

install(); // fills npm's own cache, as a user's earlier installs would have
const warm = [];
const cold = [];
let size;
for (let i = 0; i < RUNS; i++) {
  const w = install();
  warm.push(w.seconds);
  size = walk(w.prefix);
  const cache = mkdtempSync(join(work, "cache-"));
  cold.push(install(cache).seconds);
  rmSync(cache, { recursive: true, force: true });
}
const out = {
  warmSeconds: median(warm),
  coldSeconds: median(cold),
  installedBytes: size.bytes,
  installedFiles: size.files,
  tarballBytes: statSync(tarball).size,
  runs: RUNS,
};
rmSync(work, { recursive: true, force: true });
console.log(JSON.stringify(out));
