// What the explorer's Chromium tests share: the CLI started as a user starts it on ../shared, a browser, raw requests, screenshots.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { chromiumPath, cliBin, REPO, runCliAsync, shared, tempDir } from "@convkit/test-helpers";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";

/** Screenshots of every view at 1400 and 400 px, for a reviewer (CI keeps test-output/). */
export const SHOTS = join(REPO, "test-output", "screenshots");

/** The single-turn dict and the two ClariQ dev runs every Runs check compares. */
export const clariqRunArgs = () => [
  "--eval-dict",
  shared("golden", "clariq-eval", "eval_dicts", "single_turn_train_eval.pkl"),
  "--run",
  shared("data", "clariq", "sample_runs", "dev_no_q"),
  "--run",
  shared("data", "clariq", "sample_runs", "dev_bm25"),
];

/** ClariQ's and Qulac's real files, as the explorer and gen:synthetic take them. */
export const clariqDataArgs = () => [
  "--data",
  shared("data", "clariq"),
  "--qulac",
  shared("data", "qulac", "qulac.json"),
];

/** iKAT's passages and the spaCy model that splits them, for the Passages view. */
export const passageArgs = () => [
  "--passages",
  shared("data", "ikat", "2023_train_topics_psg_text.jsonl"),
  "--spacy-model",
  shared("models", "en_core_web_sm-3.8.0"),
];

/** gen:synthetic's dev set (JSONL and pickle) in a fresh folder. */
export async function devSynthetic(formats = "jsonl,pickle"): Promise<string> {
  const tmp = tempDir("explore-");
  const gen = await runCliAsync("gen-synthetic", [
    ...clariqDataArgs(),
    "--splits",
    "dev",
    "--format",
    formats,
    "--out",
    tmp,
  ]);
  expect(gen.code, gen.stderr).toBe(0);
  return tmp;
}

/** `convkit-explore ARGS --port 0` (with `env`: its TMPDIR, say), resolved with its URL once it listens. */
export async function startExplorer(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ server: ChildProcess; base: string; stderr: string[] }> {
  const server = spawn(process.execPath, [cliBin("explore"), ...args, "--port", "0"], {
    cwd: REPO,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stderr: string[] = [];
  const base = await new Promise<string>((resolve, reject) => {
    let err = "";
    server.stderr.on("data", (d) => {
      err += d;
      stderr.push(String(d));
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(err);
      if (m?.[1]) resolve(m[1]);
    });
    server.on("exit", (c) => reject(new Error(`convkit-explore exited ${c}: ${err}`)));
  });
  return { server, base, stderr };
}

/** Stops the server with SIGTERM; it must exit 0. */
export async function stopExplorer(server: ChildProcess | undefined): Promise<void> {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise<number | null>((r) => server.on("exit", (c) => r(c)));
  server.kill("SIGTERM");
  expect(await exited).toBe(0);
}

/**
 * A test file's explorer and browser: `convkit-explore` started on the file's arguments, Chromium
 * launched and one page opened at 1400 × 900 before its tests, both closed after them. Made at the
 * top of the file (its helpers read `s.page`, `s.base`), started by {@link use} inside its describe.
 */
export class ExplorerSession {
  #server: ChildProcess | undefined;
  #base: string | undefined;
  #browser: Browser | undefined;
  #page: Page | undefined;
  /** What the server printed while starting (its URL, what it opened). */
  stderr: string[] = [];

  /**
   * Registers the describe's beforeAll and afterAll: `args()` (which may first make the inputs)
   * gives the command line; `stopped` runs once the server has exited (a check of what it left).
   */
  use(
    args: () => string[] | Promise<string[]>,
    options: { env?: NodeJS.ProcessEnv; timeout?: number; stopped?: () => void } = {},
  ): void {
    beforeAll(async () => {
      ({
        server: this.#server,
        base: this.#base,
        stderr: this.stderr,
      } = await startExplorer(await args(), options.env));
      this.#browser = await launch();
      this.#page = await this.#browser.newPage({ viewport: { width: 1400, height: 900 } });
    }, options.timeout ?? 240_000);
    afterAll(async () => {
      await this.#browser?.close();
      await stopExplorer(this.#server);
      options.stopped?.();
    });
  }

  get page(): Page {
    return started(this.#page);
  }
  get base(): string {
    return started(this.#base);
  }
  get browser(): Browser {
    return started(this.#browser);
  }
}

function started<T>(x: T | undefined): T {
  if (x === undefined)
    throw new Error("the explorer session has not started (ExplorerSession.use in the describe)");
  return x;
}

/** The rows of a CSV download link (`[data-test=csv]`: a data: URL), its trailing newline dropped. */
export async function csvOf(link: Locator): Promise<string[]> {
  const href = await link.getAttribute("href");
  if (href === null) throw new Error("the CSV link has no href");
  return decodeURIComponent(href.replace(/^data:text\/csv;charset=utf-8,/, ""))
    .trimEnd()
    .split("\n");
}

async function launch(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });
}

/** A raw GET (or other method) with the path sent exactly as written (fetch would normalize it). */
export function raw(base: string, path: string, method = "GET"): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    // A connection per request: a kept-alive socket that the server closed after its idle time,
    // reused by the next request at that moment, ends in "socket hang up".
    const req = request({ host: u.hostname, port: u.port, path, method, agent: false }, (res) => {
      let body = "";
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The JSON of a GET that must answer 200. */
export async function json<T>(base: string, path: string): Promise<T> {
  const r = await raw(base, path);
  expect(r.status, `${path}: ${r.body.slice(0, 200)}`).toBe(200);
  return JSON.parse(r.body) as T;
}

/** Waits until the page has drawn `hash` (the app sets __CONVKIT_READY__ to it). */
export async function ready(page: Page, hash: string): Promise<void> {
  await page.waitForFunction(
    (h) => (globalThis as { __CONVKIT_READY__?: string }).__CONVKIT_READY__ === h,
    hash,
    { timeout: 20_000 },
  );
}

/** Opens `hash` and, given a name, writes its screenshot. */
export async function open(page: Page, base: string, hash: string, shot?: string): Promise<void> {
  await page.goto(`${base}${hash}`);
  await ready(page, hash);
  if (shot) await page.screenshot({ path: join(SHOTS, `${shot}.png`), fullPage: false });
}

/** The text a person sees in an element (rendered: hidden parts left out), not its DOM text. */
// biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered text, on purpose
export const shown = (l: Locator) => l.innerText();
