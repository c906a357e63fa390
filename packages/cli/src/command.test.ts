import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { InputError, UsageError } from "@convkit/io";
import { describe, expect, it } from "vitest";
import { type CommandSpec, defineCommand, exitCodeOf, helpText, parseCommand } from "./command.js";

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

describe("typed options", () => {
  const typed = defineCommand({
    name: "convkit-y",
    summary: "Does y.",
    options: [
      { name: "depth", type: "integer", min: 1, default: 30, description: "depth" },
      { name: "mu", type: "number", description: "mu" },
      { name: "splits", type: "list", choices: ["dev", "train"], default: ["dev"], description: "splits" },
      { name: "shard", type: "shard", description: "shard" },
      { name: "m", type: "string", multiple: true, description: "measures" },
      { name: "gzip", type: "boolean", description: "gzip" },
    ],
    run(o) {
      // Compile-time checks: each value has its declared type (these lines fail tsc otherwise).
      const depth: number = o.depth;
      const mu: number | undefined = o.mu;
      const splits: ("dev" | "train")[] = o.splits;
      const shard: [number, number] | undefined = o.shard;
      const m: string[] = o.m;
      const gzip: boolean = o.gzip;
      return depth + (mu ?? 0) + splits.length + (shard?.[0] ?? 0) + m.length + Number(gzip);
    },
  });

  it("converts values to their kinds, with defaults in their own type", () => {
    expect(parseCommand(typed, []).options).toEqual({
      depth: 30,
      mu: undefined,
      splits: ["dev"],
      shard: undefined,
      m: [],
      gzip: false,
    });
    const r = parseCommand(typed, [
      "--depth",
      "7",
      "--mu",
      "1.5e3",
      "--splits",
      "train,dev",
      "--shard",
      "3/20",
      "--m",
      "a",
      "--m",
      "b",
    ]);
    expect(r.options).toMatchObject({
      depth: 7,
      mu: 1500,
      splits: ["train", "dev"],
      shard: [3, 20],
      m: ["a", "b"],
    });
  });

  it.each([
    [["--depth", "abc"], '--depth takes an integer, not "abc"'],
    [["--depth", "2.5"], '--depth takes an integer, not "2.5"'],
    [["--depth", "0"], '--depth takes an integer >= 1, not "0"'],
    [["--depth", ""], '--depth takes an integer, not ""'],
    [["--mu", "x"], '--mu takes a number, not "x"'],
    [["--mu", "Infinity"], '--mu takes a number, not "Infinity"'],
    [["--splits", "dev,,train"], "--splits takes a comma-separated list without empty items"],
    [["--splits", "test"], '--splits must be one of dev, train, not "test"'],
    [["--shard", "3/2"], '--shard takes I/N with 0 <= I < N, not "3/2"'],
    [["--shard", "a/2"], '--shard takes I/N with 0 <= I < N, not "a/2"'],
  ])("%j is one usage error (exit 2)", (argv, message) => {
    expect(() => parseCommand(typed, argv)).toThrow(`convkit-y: ${message}`);
    try {
      parseCommand(typed, argv);
    } catch (e) {
      expect(exitCodeOf(e)).toBe(2);
    }
  });
});

describe("help layout", () => {
  it("an option wider than the column keeps two spaces before its description", () => {
    const wide = defineCommand({
      name: "convkit-w",
      summary: "W.",
      options: [
        { name: "experiment_type", type: "string", description: "the split" },
        { name: "n", type: "integer", description: "how many" },
      ],
      run: () => 0,
    });
    const rows = helpText(wide).split("\n");
    expect(rows).toContain("  --experiment_type EXPERIMENT_TYPE  the split");
    expect(rows).toContain(`  ${"--n N".padEnd(24)}  how many`);
  });
});

describe("typed positionals", () => {
  it("required ones are strings, optional ones string | undefined, a rest string[]", async () => {
    const seen: unknown[] = [];
    const one = defineCommand({
      name: "convkit-one",
      summary: "One.",
      options: [],
      positionals: { name: "FILE", description: "f", min: 1, max: 1 },
      run(_o, [file]) {
        // Compile-time: a required argument is a string (this line fails tsc with string[]).
        const f: string = file;
        seen.push(f);
        return 0;
      },
    });
    const pair = defineCommand({
      name: "convkit-pair",
      summary: "Pair.",
      options: [],
      positionals: { name: "QRELS [RUN]", description: "q", min: 1, max: 2 },
      run(_o, [qrels, run]) {
        const q: string = qrels;
        const r: string | undefined = run;
        seen.push(q, r);
        return 0;
      },
    });
    const many = defineCommand({
      name: "convkit-many",
      summary: "Many.",
      options: [],
      positionals: { name: "RUN...", description: "r", min: 2 },
      run(_o, runs) {
        const [a, b, ...rest] = runs;
        const both: [string, string] = [a, b];
        const more: string[] = rest;
        seen.push(both, more);
        return 0;
      },
    });
    for (const [c, argv] of [
      [one, ["a.json"]],
      [pair, ["q"]],
      [many, ["x", "y", "z"]],
    ] as const) {
      const p = parseCommand(c, [...argv]);
      await c.run(p.options, p.positionals);
    }
    expect(seen).toEqual(["a.json", "q", undefined, ["x", "y"], ["z"]]);
    expect(() => parseCommand(one, [])).toThrow("convkit-one: expected FILE");
    expect(() => parseCommand(pair, ["q", "r", "s"])).toThrow('unexpected argument "s"');
  });
});

describe("runMain as a process", () => {
  /** Runs a command built from `run` (source text) through the built runMain in a fresh node. */
  const runScript = (run: string) => {
    const dir = mkdtempSync(join(tmpdir(), "convkit-runmain-"));
    const script = join(dir, "main.mjs");
    const cli = pathToFileURL(join(import.meta.dirname, "..", "dist", "index.js")).href;
    writeFileSync(
      script,
      `import { runMain } from ${JSON.stringify(cli)};\nawait runMain({ name: "convkit-x", summary: "", options: [], run: ${run} }, []);\n`,
    );
    return spawnSync(process.execPath, [script], { encoding: "utf8" });
  };

  it("a command whose wait can never end (the event loop empties) fails with one line, not exit 0", () => {
    const r = runScript("() => new Promise(() => {})");
    expect(r.stderr).toBe("convkit-x: stopped with its work unfinished (a wait that could never end)\n");
    expect(r.status).toBe(1);
  });

  it("a write error that bypassed the sink (appendFile on a full disk) is one line, exit 1", () => {
    const r = runScript(
      `() => { throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write", path: "/o/manifest.tsv" }); }`,
    );
    expect(r.stderr).toBe("convkit-x: cannot write /o/manifest.tsv: no space left on device\n");
    expect(r.status).toBe(1);
  });

  it("a command that finishes is not flagged", () => {
    const r = runScript("async () => { await new Promise((res) => setTimeout(res, 1)); return 0; }");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe("runSubcommands --help", () => {
  it("pads the command list to the longest name (eval-passages ran into its summary)", () => {
    const dir = mkdtempSync(join(tmpdir(), "convkit-subs-"));
    const script = join(dir, "main.mjs");
    const cli = pathToFileURL(join(import.meta.dirname, "..", "dist", "index.js")).href;
    const sub = (name: string, summary: string) =>
      `{ name: "convkit-y ${name}", summary: "${summary}", options: [], run: () => 0 }`;
    writeFileSync(
      script,
      `import { runSubcommands } from ${JSON.stringify(cli)};\nawait runSubcommands("convkit-y", "Y.", [${sub("flatten", "Flattens.")}, ${sub("eval-passages", "Passage ranking.")}, ${sub("eval-citations-long", "Citations.")}], ["--help"]);\n`,
    );
    const r = spawnSync(process.execPath, [script], { encoding: "utf8" });
    expect(r.status).toBe(0);
    const rows = r.stdout.split("\n").filter((l) => /^ {2}\S/.test(l));
    expect(rows).toEqual([
      "  flatten              Flattens.",
      "  eval-passages        Passage ranking.",
      "  eval-citations-long  Citations.",
    ]);
  });
});
