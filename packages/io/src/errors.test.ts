import { describe, expect, it } from "vitest";
import { errorForThread, errorFromThread, InputError, UsageError } from "./errors.js";

/** What a worker thread's error goes through on its way to the main thread. */
const acrossThreads = (e: unknown) => errorFromThread(structuredClone(errorForThread(e)));

describe("errors across worker threads", () => {
  it("a plain structured clone loses the class (the reason for errorForThread)", () => {
    const cloned = structuredClone(new InputError("f.jsonl", { line: 3 }, "JSON", "junk"));
    expect(cloned).not.toBeInstanceOf(InputError);
  });

  it("an InputError keeps its class, fields, message and exit code", () => {
    const e = new InputError("f.jsonl", { line: 3, col: 7 }, "valid JSON", "end of input");
    const back = acrossThreads(e) as InputError;
    expect(back).toBeInstanceOf(InputError);
    expect(back.message).toBe("f.jsonl:3:7: expected valid JSON, found end of input");
    expect(back.location).toEqual({ line: 3, col: 7 });
    expect(back.exitCode).toBe(2);
  });

  it("a UsageError keeps its class; any other error passes as it is", () => {
    const u = acrossThreads(new UsageError("bad flag")) as UsageError;
    expect(u).toBeInstanceOf(UsageError);
    expect(u.message).toBe("bad flag");
    const other = acrossThreads(new RangeError("boom")) as Error;
    expect(other).not.toBeInstanceOf(InputError);
    expect(other.message).toBe("boom");
    expect(errorFromThread(null)).toBe(null);
  });
});
