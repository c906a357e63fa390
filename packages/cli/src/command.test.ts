import { InputError, UsageError } from "@convkit/io";
import { describe, expect, it } from "vitest";
import { type CommandSpec, exitCodeOf, helpText, parseCommand } from "./command.js";
import { parseShard } from "./values.js";

const cmd: CommandSpec = {
  name: "convkit-x",
  summary: "Does x.",
  options: [
    {
      name: "eval_task",
      type: "string",
      description: "what to evaluate",
      choices: ["a", "b"],
      required: true,
    },
    { name: "experiment_type", type: "string", description: "split", default: "dev" },
    { name: "multi_turn", type: "boolean", description: "multi-turn" },
  ],
  positionals: { name: "FILE", description: "input", max: 1 },
  run: () => 0,
};

describe("commands as data", () => {
  it("parses upstream-style flags with defaults and choices", () => {
    const r = parseCommand(cmd, ["--eval_task", "a", "--multi_turn", "f.txt"]);
    expect(r.options).toMatchObject({ eval_task: "a", experiment_type: "dev", multi_turn: true });
    expect(r.positionals).toEqual(["f.txt"]);
    expect(parseCommand(cmd, ["-h"]).help).toBe(true);
  });

  it("turns wrong usage into UsageError (exit 2)", () => {
    expect(() => parseCommand(cmd, [])).toThrow("convkit-x: the option --eval_task is required");
    expect(() => parseCommand(cmd, ["--eval_task", "c"])).toThrow('--eval_task must be one of a, b, not "c"');
    expect(() => parseCommand(cmd, ["--eval_task", "a", "x", "y"])).toThrow('unexpected argument "y"');
    expect(() => parseCommand(cmd, ["--bogus"])).toThrow(UsageError);
  });

  it("maps errors to exit codes in one place", () => {
    expect(exitCodeOf(new UsageError("u"))).toBe(2);
    expect(exitCodeOf(new InputError("f", { line: 3 }, "x", "y"))).toBe(2);
    expect(exitCodeOf(new Error("other"))).toBe(1);
  });

  it("renders --help from the option data", () => {
    const h = helpText(cmd);
    expect(h).toContain("usage: convkit-x [options] FILE");
    expect(h).toMatch(/--eval_task EVAL_TASK\s+what to evaluate \(one of a\|b; required\)/);
    expect(h).toMatch(/--experiment_type EXPERIMENT_TYPE\s+split \(default: dev\)/);
  });
});

describe("parseShard", () => {
  it("I/N with 0 <= I < N, else a usage error", () => {
    expect(parseShard("x", "3/20")).toEqual([3, 20]);
    expect(parseShard("x", undefined)).toBeUndefined();
    for (const bad of ["3/3", "a/2", "1", "-1/2"])
      expect(() => parseShard("x", bad)).toThrow("x: --shard takes I/N");
  });
});
