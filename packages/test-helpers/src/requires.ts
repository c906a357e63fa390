// What a test needs beyond Node and npm (../shared, Chromium, redis-server, python3 and its modules, the Python Parquet readers, the other supported Nodes): probed once, skipped with one line outside CI, failed under CI.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { beforeAll, describe, inject, it, type TestFunction } from "vitest";
import { canMountTmpfs } from "./disk.js";
import { REPO, SHARED } from "./shared.js";
import { IN_CI, MISSING_KEY } from "./skip-summary.js";

/** Everything a test may need that a clean clone with only Node and npm lacks. */
export type Requirement =
  | "shared"
  | "chromium"
  | "redis-server"
  | "python3"
  | "numpy"
  | "scipy"
  | "spacy"
  | "python-parquet"
  | "other-nodes"
  | "tmpfs";

/** How to get each requirement (the text after "needs X" in the skip line). */
const HOW_TO_GET: Readonly<Record<Requirement, string>> = {
  shared: "put the shared/ folder beside the repo as ../shared or set CONVKIT_SHARED",
  chromium: "apt-get install chromium",
  "redis-server": "apt-get install redis-server",
  python3: "apt-get install python3",
  numpy: "apt-get install python3-numpy",
  scipy: "apt-get install python3-scipy python3-statsmodels: SciPy 1.10 and statsmodels 0.13, Debian 12's",
  spacy: "pip install spacy, so that python3 -c 'import spacy' works",
  "python-parquet":
    "pip install pyarrow pandas polars duckdb datasets, so that python3 imports all five; .ci/run puts them in its venv",
  "other-nodes":
    "Node 24 and 26 as binaries: npm install --prefix .ci/.tools/node24 node@24 (and node26, node@26), as .ci/run does, or CONVKIT_OTHER_NODES=PATH24:PATH26",
  tmpfs: "run as root where mount -t tmpfs works (the full-disk and read-only tests mount small disks)",
};

/** Every requirement (test/requirements.test.ts checks that its scan of the test files knows each). */
export const REQUIREMENTS = Object.keys(HOW_TO_GET) as Requirement[];

/**
 * FOR TESTING THE SKIP PATH ONLY: CONVKIT_TEST_PRETEND_MISSING=scipy,spacy makes those requirements
 * count as missing though they are installed (python3's modules cannot be hidden by PATH; the
 * others can, by PATH without them and CONVKIT_SHARED=/nonexistent).
 */
const PRETEND = new Set((process.env.CONVKIT_TEST_PRETEND_MISSING ?? "").split(",").filter((s) => s !== ""));

const onPath = (cmd: string): string | undefined =>
  spawnSync("sh", ["-c", `command -v ${cmd}`])
    .stdout?.toString()
    .trim() || undefined;
const runs = (cmd: string, args: string[]): boolean => {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "pipe", "ignore"] });
  return r.status === 0;
};

/** A python3 with SciPy 1.10 and statsmodels 0.13 (newer SciPy computes stdtrit otherwise): its path. */
function findScipy(): string | undefined {
  return ["/usr/bin/python3", "python3"].find((py) => {
    const r = spawnSync(
      py,
      ["-c", "import scipy, statsmodels; print(scipy.__version__, statsmodels.__version__)"],
      {
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    return r.status === 0 && /^1\.10\.\d+ 0\.13\./.test(r.stdout.toString().trim());
  });
}

/** The supported Node lines other than the one the suite runs on by default (CI's is 20). */
export const OTHER_NODE_LINES = [24, 26] as const;
export type OtherNodeLine = (typeof OTHER_NODE_LINES)[number];

/** Node 24 and 26 (CONVKIT_OTHER_NODES, else where .ci/run installs them): "PATH24:PATH26". */
function findOtherNodes(): string | undefined {
  const given = process.env.CONVKIT_OTHER_NODES?.split(":").filter((p) => p !== "");
  const candidates =
    given ??
    OTHER_NODE_LINES.map((v) =>
      join(REPO, ".ci", ".tools", `node${v}`, "node_modules", "node", "bin", "node"),
    );
  const byLine = new Map<number, string>();
  for (const path of candidates) {
    const r = spawnSync(path, ["-p", "process.versions.node"], { stdio: ["ignore", "pipe", "ignore"] });
    if (r.status === 0) byLine.set(Number.parseInt(r.stdout.toString(), 10), path);
  }
  const paths = OTHER_NODE_LINES.map((v) => byLine.get(v));
  return paths.every((p) => p !== undefined) ? paths.join(":") : undefined;
}

/** Each probe answers what it found (undefined when missing): a path or a command. */
const PROBES: Record<Requirement, () => string | undefined> = {
  shared: () => (existsSync(join(SHARED, "data")) && existsSync(join(SHARED, "golden")) ? SHARED : undefined),
  chromium: () => onPath("chromium") ?? onPath("chromium-browser"),
  "redis-server": () => (runs("redis-server", ["--version"]) ? onPath("redis-server") : undefined),
  python3: () => (runs("python3", ["-c", "pass"]) ? "python3" : undefined),
  numpy: () => (runs("python3", ["-c", "import numpy"]) ? "python3" : undefined),
  scipy: findScipy,
  spacy: () => (runs("python3", ["-c", "import spacy"]) ? "python3" : undefined),
  "python-parquet": () =>
    runs("python3", ["-c", "import pyarrow, pandas, polars, duckdb, datasets"]) ? "python3" : undefined,
  "other-nodes": findOtherNodes,
  tmpfs: () => (canMountTmpfs() ? "mount" : undefined),
};

declare module "vitest" {
  export interface ProvidedContext {
    /** A folder the test processes of one run share their probe results in (test-helpers' global setup). */
    convkitProbeDir: string;
    /** The run's temporary folder: each test file's TMPDIR is a folder inside it (temp-root.ts). */
    convkitTempRoot: string;
  }
}

const found = new Map<Requirement, string>();

/**
 * What the probe for `req` found, or "" when it is missing: probed once per run (the answer is kept
 * in the run's probe folder for the other test processes) and cached in this one.
 */
function probe(req: Requirement): string {
  if (PRETEND.has(req)) return "";
  const known = found.get(req);
  if (known !== undefined) return known;
  let dir: string | undefined;
  try {
    dir = inject("convkitProbeDir");
  } catch {
    dir = undefined; // outside a vitest run with the global setup
  }
  const file = dir && join(dir, `${req}.txt`);
  let answer: string;
  if (file && existsSync(file)) answer = readFileSync(file, "utf8");
  else {
    answer = PROBES[req]() ?? "";
    if (dir && file) {
      // Written aside and renamed: another test process never reads a half-written answer.
      mkdirSync(dir, { recursive: true });
      const part = `${file}.${process.pid}.${threadId}`;
      writeFileSync(part, answer);
      renameSync(part, file);
    }
  }
  found.set(req, answer);
  return answer;
}

/** Whether `req` is here. */
const has = (req: Requirement): boolean => probe(req) !== "";

/** The line a missing requirement leaves: `needs chromium (apt-get install chromium)`. */
const needsLine = (req: Requirement): string => `needs ${req} (${HOW_TO_GET[req]})`;

/** The path of Chromium (declare `requires("chromium")` first). */
export function chromiumPath(): string {
  const p = probe("chromium");
  if (!p) throw new Error(needsLine("chromium"));
  return p;
}

/** The binary of Node `line` (declare `requires("other-nodes")` first). */
export function otherNode(line: OtherNodeLine): string {
  const p = probe("other-nodes");
  if (!p) throw new Error(needsLine("other-nodes"));
  return p.split(":")[OTHER_NODE_LINES.indexOf(line)]!;
}

/** The python3 with SciPy 1.10 and statsmodels 0.13 (declare `requires("scipy")` first). */
export function scipyPython(): string {
  const p = probe("scipy");
  if (!p) throw new Error(needsLine("scipy"));
  return p;
}

/** The tests of a file, a describe block or one test, declared with what they need. */
interface Needs {
  /** What is missing of what was declared (empty: everything is here). */
  readonly missing: readonly Requirement[];
  /** A describe block needing it all: skipped outside CI when something is missing, failed under CI. */
  describe(name: string, factory: () => void, options?: { timeout?: number }): void;
  /** One test needing it all: skipped outside CI when something is missing, failed under CI. */
  it(name: string, fn: TestFunction, timeout?: number): void;
}

/**
 * Declares what the tests that follow need:
 *
 *     requires("shared", "chromium").describe("the explorer in Chromium", () => { ... });
 *     requires("python3").it("matches python3's repr", () => { ... });
 *
 * When something is missing, outside CI the tests are skipped and the run's summary
 * (test-helpers' reporter) prints one line per missing requirement and file,
 * `skipped 8 tests in apps/explore/src/explore.shared.slow.test.ts: needs chromium (apt-get install chromium)`;
 * under CI (CI=true) they fail with the same `needs …` line instead. A skipped describe's factory
 * still runs (it collects the tests): it must not read ../shared or start anything itself; do that
 * in beforeAll or in the tests.
 */
export function requires(...reqs: Requirement[]): Needs {
  const missing = reqs.filter((r) => !has(r));
  const lines = missing.map(needsLine);
  const meta = Object.fromEntries(missing.map((r) => [`${MISSING_KEY}${r}`, needsLine(r)]));
  const fail = () => {
    throw new Error(`${lines.join("; ")}: CI is set, so a missing requirement fails instead of skipping`);
  };
  const skip = missing.length > 0 && !IN_CI;
  return {
    missing,
    describe(name, factory, options = {}) {
      describe(name, { ...options, skip, meta }, () => {
        if (missing.length > 0 && IN_CI) beforeAll(fail);
        factory();
      });
    },
    it(name, fn, timeout) {
      const t = timeout === undefined ? {} : { timeout };
      if (missing.length > 0 && IN_CI) it(name, { ...t, meta }, fail);
      else it(name, { ...t, skip, meta }, fn);
    },
  };
}
