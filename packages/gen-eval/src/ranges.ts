// gen:eval's numeric settings and their ranges, declared once: `convkit-gen-eval` checks its
// options against them, and a queue worker checks a job's options against the same (a job in
// Redis may come from anyone, not only from the CLI).
import type { Fields } from "@convkit/json";

/** A setting's range: its option, the bounds, and how a message says it. */
interface Range {
  readonly option: string;
  readonly min: number;
  /** The minimum itself is refused (mu > 0). */
  readonly aboveMin?: boolean;
  readonly max?: number;
  readonly integer?: boolean;
  /** For messages: `a positive number`. */
  readonly expected: string;
}

export const GEN_EVAL_RANGES = {
  maxHistory: { option: "max-history", min: 0, max: 2, integer: true, expected: "0, 1 or 2" },
  depth: { option: "depth", min: 1, integer: true, expected: "an integer of at least 1" },
  mu: { option: "mu", min: 0, aboveMin: true, expected: "a positive number" },
  k1: { option: "k1", min: 0, expected: "a number of at least 0" },
  b: { option: "b", min: 0, expected: "a number of at least 0" },
} as const satisfies Record<string, Range>;

/** Whether `v` is in range `r`. */
export function inRange(r: Range, v: number): boolean {
  return (
    Number.isFinite(v) &&
    (r.aboveMin ? v > r.min : v >= r.min) &&
    (r.max === undefined || v <= r.max) &&
    (!r.integer || Number.isInteger(v))
  );
}

/** An optional field read and checked against its range (a mismatch throws what `f` makes of it). */
export function readInRange(f: Fields, key: keyof typeof GEN_EVAL_RANGES): number | undefined {
  if (!f.has(key)) return undefined;
  const r: Range = GEN_EVAL_RANGES[key];
  const v = f.number(key);
  if (!inRange(r, v)) throw f.fail(key, r.expected, v);
  return v;
}
