// `-m` measure names and parameters, parsed as trec_eval reads them, in its measure table order.
import { UsageError } from "@convkit/io";
import {
  cutoffsOf,
  MEASURE_BY_NAME,
  MEASURE_TABLE,
  type Measure,
  type MeasureSpec,
} from "./measure-table.js";

export type { MeasureSpec } from "./measure-table.js";

/** The measures' names, in trec_eval's measure table order (the order it prints them in). */
export const MEASURES: readonly string[] = MEASURE_TABLE.map((m) => m.name);
/** trec_eval's default set (`official`). */
const OFFICIAL = MEASURE_TABLE.filter((m) => m.official).map((m) => m.name);
/** trec_eval's `all_trec`: its table but the measures marked as not in it. */
const ALL_TREC = MEASURE_TABLE.filter((m) => !m.notAllTrec).map((m) => m.name);

/**
 * Parses `-m` values (`P.5,10`, `iprec_at_recall..1,.5`, `official`, `all_trec`) into trec_eval's
 * order; a measure named twice is computed once, with its cutoffs merged.
 */
export function parseMeasures(specs: readonly string[]): MeasureSpec[] {
  const merged = new Map<string, MeasureSpec>();
  for (const m of parseMeasureList(specs)) {
    const prev = merged.get(m.name);
    // Cutoffs named twice are merged; other parameters: the first given wins (trec_eval takes
    // the first -m naming the measure with parameters, wherever a bare one is).
    const measure = MEASURE_BY_NAME.get(m.name);
    if (measure?.params.kind !== "cutoffs")
      merged.set(m.name, prev?.paramText !== undefined || m.paramText === undefined ? (prev ?? m) : m);
    else if (!prev || (!m.cutoffs && !prev.cutoffs)) merged.set(m.name, prev ?? m);
    else {
      const all = new Set([...cutoffsOf(measure, prev), ...cutoffsOf(measure, m)]);
      merged.set(m.name, { name: m.name, cutoffs: [...all].sort((x, y) => x - y), paramText: m.paramText });
    }
  }
  const order = (name: string) => MEASURES.indexOf(name);
  return [...merged.values()].sort((x, y) => order(x.name) - order(y.name));
}

/**
 * {@link parseMeasures} for a command's `-m` values: a measure unknown or badly given is a
 * {@link UsageError} naming the command (one line, exit 2, no stack), the same in every CLI.
 */
export function parseMeasureOptions(command: string, specs: readonly string[]): MeasureSpec[] {
  try {
    return parseMeasures(specs);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(`${command}: ${e.message}`);
    throw e;
  }
}

function parseMeasureList(specs: readonly string[]): MeasureSpec[] {
  const out: MeasureSpec[] = [];
  for (const s of specs.length ? specs : ["official"]) {
    if (s === "official") out.push(...OFFICIAL.map((name) => ({ name })));
    else if (s === "all_trec") out.push(...ALL_TREC.map((name) => ({ name })));
    else {
      const dot = s.indexOf(".");
      const name = dot < 0 ? s : s.slice(0, dot);
      const params = dot < 0 ? undefined : s.slice(dot + 1);
      const measure = MEASURE_BY_NAME.get(name);
      if (measure === undefined)
        throw new RangeError(`unknown measure ${JSON.stringify(name)} (known: ${MEASURES.join(", ")})`);
      if (params === undefined || params === "") out.push({ name });
      else out.push(parseParams(measure, params, s));
    }
  }
  return out;
}

/** A measure's parameters (`params`, the text after the dot of `s`) as trec_eval reads them. */
function parseParams(measure: Measure, params: string, s: string): MeasureSpec {
  const { name } = measure;
  const p = measure.params;
  switch (p.kind) {
    case "none":
      throw new RangeError(`${name} takes no parameters: ${s}`);
    case "numbers": {
      // trec_eval reads these with atof: negative coefficients are fine.
      const values = params.split(",").map(Number);
      const n = p.defaults.length;
      if (values.some((v) => !Number.isFinite(v)) || values.length !== n)
        throw new RangeError(`${name} takes ${n} number${n > 1 ? "s" : ""}: ${s}`);
      return { name, numbers: values, paramText: params };
    }
    case "pairs": {
      const pairs = params.split(",").map((x) => {
        const eq = x.indexOf("=");
        const v = Number(x.slice(eq + 1));
        if (eq <= 0 || x.slice(eq + 1) === "" || !Number.isFinite(v))
          throw new RangeError(`${name} takes name=value parameters (e.g. 1=3,2=9): ${s}`);
        return [x.slice(0, eq), v] as const;
      });
      return { name, pairs, paramText: params };
    }
    case "cutoffs": {
      const { fraction } = p;
      const values = params.split(",").map((x) => {
        // trec_eval reads counts with atol (`23.4` is 23) and fractions with atof.
        const v = fraction ? Number(x) : Number.parseInt(x, 10);
        if (!Number.isFinite(v) || v < 0 || (!fraction && v === 0))
          throw new RangeError(
            `${name} takes ${fraction ? "non-negative numbers" : "positive integers"}: ${s}`,
          );
        return v;
      });
      if (p.single && values.length !== 1) throw new RangeError(`${name} takes one parameter: ${s}`);
      return { name, cutoffs: [...new Set(values)].sort((x, y) => x - y), paramText: params };
    }
  }
}
