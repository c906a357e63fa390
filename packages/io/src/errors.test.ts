import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { DownloadError } from "./download.js";
import { anyErrorToData, errorFromData, errorToData } from "./error-codec.js";
import { ConvkitError, InputError, OutputError, throwIfParquet, UsageError } from "./errors.js";

/** Every class of io's with a cause chain (a convkit error's, then a foreign one's). */
function codecCases(): { code: string; exitCode: number; error: ConvkitError }[] {
  const root = new RangeError("offset out of range");
  const input = new InputError("f.jsonl", { line: 3, col: 7 }, "valid JSON", "end of input", { cause: root });
  // throwIfParquet's InputError, whose message is its own (not the class's): kept as it was.
  let parquet = new InputError("x", {}, "", "");
  try {
    throwIfParquet("t.jsonl", "PAR1");
  } catch (e) {
    if (e instanceof InputError) parquet = e;
  }
  return [
    { code: "input", exitCode: 2, error: input },
    { code: "input", exitCode: 2, error: parquet },
    { code: "usage", exitCode: 2, error: new UsageError("bad flag", { cause: input }) },
    { code: "output", exitCode: 1, error: new OutputError("out.jsonl", "no space left on device", "ENOSPC") },
    { code: "download", exitCode: 1, error: new DownloadError("https://x/y", "HTTP 404 Not Found") },
    { code: "error", exitCode: 1, error: new ConvkitError("run failed", { cause: new UsageError("inner") }) },
  ];
}

/** The class, code, fields, message, exit code and causes of `back` are those of `e`. */
function expectSameError(back: unknown, e: Error): void {
  // A foreign error (in a cause) comes back an Error of its name: its class is not convkit's to know.
  expect(back).toBeInstanceOf(e instanceof ConvkitError ? e.constructor : Error);
  if (!(back instanceof Error)) throw new Error("not an error");
  const b = back;
  expect(b.message).toBe(e.message);
  expect(b.name).toBe(e.name);
  if (e instanceof ConvkitError) {
    expect(b).toMatchObject({ code: e.code, exitCode: e.exitCode });
    if (e instanceof InputError)
      expect(b).toMatchObject({ file: e.file, location: e.location, found: e.found });
    if (e instanceof OutputError) expect(b).toMatchObject({ path: e.path, reason: e.reason, errno: e.errno });
  }
  if (e.cause instanceof Error) expectSameError(b.cause, e.cause);
  else expect(b.cause).toBeUndefined();
}

/** What crosses a real worker thread: the data sent there and posted back (two structured clones). */
function throughThread(v: unknown): Promise<unknown> {
  const w = new Worker(
    "require('node:worker_threads').parentPort.once('message', (m) => require('node:worker_threads').parentPort.postMessage(m))",
    { eval: true },
  );
  return new Promise<unknown>((resolve, reject) => {
    w.once("message", resolve);
    w.once("error", reject);
    w.postMessage(v);
  }).finally(() => w.terminate());
}

describe("the error codec across a worker thread", () => {
  it("a plain structured clone loses the class (the reason for the codec)", () => {
    const cloned = structuredClone(new InputError("f.jsonl", { line: 3 }, "JSON", "junk"));
    expect(cloned).not.toBeInstanceOf(InputError);
  });

  it("every class keeps its code, fields, message, exit code and cause chain", async () => {
    const cases = codecCases();
    expect(cases[1]?.error.message).toBe(
      "t.jsonl: a Parquet file, where this option reads JSON Lines (convkit convert t.jsonl gives them)",
    );
    expect(cases.map((c) => [c.error.code, c.error.exitCode])).toEqual(
      cases.map((c) => [c.code, c.exitCode]),
    );
    for (const { error } of cases)
      expectSameError(errorFromData(await throughThread(errorToData(error))), error);
  });

  it("a foreign error passes as it is; as JSON data its name and message stay; a non-error is not data", () => {
    const other = new RangeError("boom");
    expect(errorToData(other)).toBe(other);
    const back = errorFromData(JSON.parse(JSON.stringify(anyErrorToData(other))));
    expect(back).toBeInstanceOf(Error);
    expect(back).toMatchObject({ name: "RangeError", message: "boom" });
    expect(back).not.toBeInstanceOf(ConvkitError);
    expect(errorFromData(null)).toBe(null);
    expect(errorFromData({ message: "x" })).toEqual({ message: "x" });
  });

  it("a code io has no class for keeps its code and exit code", () => {
    class Own extends ConvkitError {
      override readonly code = "own";
      override readonly exitCode = 2;
    }
    const back = errorFromData(JSON.parse(JSON.stringify(errorToData(new Own("mine")))));
    expect(back).toBeInstanceOf(ConvkitError);
    expect(back).toMatchObject({ code: "own", exitCode: 2, message: "mine" });
  });
});
