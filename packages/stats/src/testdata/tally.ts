// What the distribution tests share (tests only, left out of the build): the fixtures' float encoding and a
// tally of relative errors against SciPy's values.

export type Encoded = number | string;

/** The fixture's encoding: floats as JSON numbers, NaN and infinities as "nan", "inf", "-inf". */
export function decode(v: Encoded): number {
  if (typeof v === "number") return v;
  if (v === "nan") return Number.NaN;
  if (v === "inf") return Number.POSITIVE_INFINITY;
  if (v === "-inf") return Number.NEGATIVE_INFINITY;
  throw new Error(`not an encoded float: ${JSON.stringify(v)}`);
}

/** Checks values against expected ones: relative error within tol, exact for NaN, ±inf, 0 and 1. */
export class Tally {
  worst = 0;
  worstAt = "";
  count = 0;
  readonly misses: string[] = [];
  constructor(readonly tol: number) {}

  check(what: string, actual: number, expected: number): void {
    this.count++;
    let ok: boolean;
    if (Number.isNaN(expected)) ok = Number.isNaN(actual);
    else if (!Number.isFinite(expected) || expected === 0 || expected === 1) ok = actual === expected;
    else {
      const rel = Math.abs(actual - expected) / Math.abs(expected);
      const r = Number.isNaN(rel) ? Number.POSITIVE_INFINITY : rel;
      if (r > this.worst) {
        this.worst = r;
        this.worstAt = what;
      }
      ok = r <= this.tol;
    }
    if (!ok) this.misses.push(`${what} = ${actual}, SciPy ${expected}`);
  }

  /** One line for the assertion message: the worst relative error, and the first misses. */
  report(name: string): string {
    const head = `${name}: ${this.count} cases, worst relative error ${this.worst.toExponential(2)} at ${this.worstAt || "-"} (tolerance ${this.tol})`;
    return this.misses.length === 0
      ? head
      : `${head}; ${this.misses.length} misses: ${this.misses.slice(0, 10).join("; ")}`;
  }
}
