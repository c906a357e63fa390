// Job kinds without Redis: payloads and results checked field by field, failures and envelopes as data, progress thinned on a fake clock.
import { ConvkitError, InputError, OutputError, UsageError } from "@convkit/io";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeFailure, encodeFailure, failureError, readEnvelope } from "./envelope.js";
import { checkOutgoing, defineJobKind, defineRunKind, JobDataError } from "./kind.js";
import { PROGRESS_MS, throttleProgress } from "./throttle.js";

const unit = defineJobKind({
  name: "square",
  payload: (f) => ({ x: f.number("x"), label: f.optionalString("label") }),
  result: (f) => ({ y: f.number("y") }),
  handle: async (p) => ({ y: p.x * p.x }),
});
const run = defineRunKind({
  name: "sum",
  unit,
  payload: (f) => ({ out: f.string("out") }),
  result: (f) => ({ total: f.number("total") }),
  handle: async (_p, units) => ({ total: units.results.reduce((a, r) => a + r.y, 0) }),
});

describe("job kinds", () => {
  it("a payload from Redis is checked field by field: a mismatch is a JobDataError naming kind and field", async () => {
    expect(unit.payload({ x: 3 })).toEqual({ x: 3, label: undefined });
    expect(() => unit.payload({ x: "3" })).toThrow(
      new JobDataError('square payload: expected a number at x, found "3"'),
    );
    expect(() => unit.payload([1])).toThrow("square payload: expected an object, found an array");
    expect(() => run.result({ total: null })).toThrow("sum result: expected a number at total, found null");
    const s = unit.start({ threads: 1 });
    expect(await s.handle({ x: 4 }, { progress() {}, say() {} }, { values: [], failed: [] })).toEqual({
      y: 16,
    });
    await expect(s.handle({ y: 4 }, { progress() {}, say() {} }, { values: [], failed: [] })).rejects.toThrow(
      JobDataError,
    );
  });

  it("a run's parent gets its units' results checked by the unit's kind", async () => {
    const s = run.start({ threads: 1 });
    const units = { values: [{ y: 1 }, { y: 4 }], failed: [] };
    expect(await s.handle({ out: "o" }, { progress() {}, say() {} }, units)).toEqual({ total: 5 });
    await expect(
      s.handle({ out: "o" }, { progress() {}, say() {} }, { values: [{ y: "1" }], failed: [] }),
    ).rejects.toThrow('square result: expected a number at y, found "1"');
  });

  it("a submitter's payload is checked as the worker will read it (after JSON)", () => {
    expect(checkOutgoing(unit, { x: 2, label: undefined })).toEqual({ x: 2 });
    expect(() => checkOutgoing(unit, { x: Number.NaN, label: undefined })).toThrow(
      "square payload: expected a number at x, found null",
    );
  });

  it("parents and units told apart by a role field; failures by a record, not by wording", () => {
    expect(readEnvelope({ role: "run", runId: "r", units: 2, payload: {} })).toMatchObject({
      role: "run",
      units: 2,
    });
    expect(readEnvelope({ role: "unit", runId: "r", index: 1, key: "a", payload: {} })).toMatchObject({
      role: "unit",
      index: 1,
    });
    // A payload with a field named `units` is still a unit.
    expect(readEnvelope({ role: "unit", runId: "r", index: 0, key: "a", payload: { units: 3 } }).role).toBe(
      "unit",
    );
    expect(() => readEnvelope({ runId: "r", units: 2 })).toThrow(
      "job data: expected one of run, unit at role, found nothing",
    );
    expect(
      decodeFailure(encodeFailure(new InputError("a.jsonl", { line: 3 }, "valid JSON", "end of input"))),
    ).toEqual({ reason: "a.jsonl:3: expected valid JSON, found end of input", badInput: true });
    expect(decodeFailure(encodeFailure(new ConvkitError("bad input: disk full"))).badInput).toBe(false);
    // BullMQ's own reasons are plain text: failures, not bad input, whatever they say.
    expect(decodeFailure("bad input: job stalled more than allowable limit")).toEqual({
      reason: "bad input: job stalled more than allowable limit",
      badInput: false,
    });
  });
});

describe("progress throttling (fake timers)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends the first update at once, then at most one per PROGRESS_MS; flush gives the last one held back", () => {
    vi.useFakeTimers({ toFake: ["performance", "Date"] });
    const sent: number[] = [];
    const t = throttleProgress((p) => sent.push(p.items));
    t.report(1, 10);
    t.report(2, 20);
    vi.advanceTimersByTime(PROGRESS_MS - 1);
    t.report(3, 30);
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(1);
    t.report(4, 40);
    expect(sent).toEqual([1, 4]);
    for (let i = 5; i <= 1000; i++) {
      vi.advanceTimersByTime(1);
      t.report(i, i * 10);
    }
    // 996 ms more: three more sends (at 4 + 250, + 500, + 750 ms), the rest held back.
    expect(sent).toEqual([1, 4, 254, 504, 754]);
    expect(t.flush()).toEqual({ items: 1000, bytes: 10_000 });
    expect(t.flush()).toBeUndefined();
  });
});

describe("a failure across Redis (the envelope's record, io's error codec in JSON)", () => {
  it("keeps the class, code, exit code and cause chain of each error", () => {
    const input = new InputError("a.jsonl", { line: 3 }, "valid JSON", "end of input", {
      cause: new SyntaxError("Unexpected end of JSON input"),
    });
    const cases: [Error, string, number][] = [
      [input, "input", 2],
      [new UsageError("segment: --batch takes an integer", { cause: input }), "usage", 2],
      [new OutputError("out/a.jsonl", "no space left on device", "ENOSPC"), "output", 1],
      [new JobDataError("job data: expected a string at runId, found 3"), "job-data", 1],
      [new ConvkitError("a.jsonl: worker crashed", { cause: new RangeError("boom") }), "error", 1],
    ];
    for (const [e, code, exitCode] of cases) {
      const back = failureError(encodeFailure(e));
      expect(back).toBeInstanceOf(e.constructor === JobDataError ? ConvkitError : e.constructor);
      expect(back).toMatchObject({ message: e.message, code, exitCode });
      let [x, y]: unknown[] = [back.cause, e.cause];
      while (y instanceof Error) {
        expect(x).toBeInstanceOf(y instanceof ConvkitError ? y.constructor : Error);
        expect(x).toMatchObject({ name: y.name, message: y.message });
        [x, y] = [x instanceof Error ? x.cause : undefined, y.cause];
      }
      expect(x).toBeUndefined();
      expect(decodeFailure(encodeFailure(e)).badInput).toBe(exitCode === 2);
    }
  });
});
