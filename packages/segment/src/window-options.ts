// The passage window's settings a user may change, declared once: the CLI's options are these
// declarations, and a queue worker checks a unit's overrides against the same ranges (a job in
// Redis may come from anyone: a stride of 0 would loop on one window until memory ran out).
import type { Fields } from "@convkit/json";
import type { SegmentOptions } from "./passages.js";

/** The window's integer settings as `convkit-segment run` options (`--window`, `--stride`, `--max-length`). */
export const WINDOW_OPTIONS = {
  window: {
    name: "window",
    type: "integer",
    min: 1,
    metavar: "N",
    description: "sentences per passage (default 10)",
  },
  stride: {
    name: "stride",
    type: "integer",
    min: 1,
    metavar: "N",
    description: "sentences between passage starts (default 5)",
  },
  maxLength: {
    name: "max-length",
    type: "integer",
    min: 1,
    metavar: "N",
    description: "code points of text kept (default 10000)",
  },
} as const;

/** Overrides of a preset's window. */
export type WindowOverrides = Partial<
  Pick<SegmentOptions, "window" | "stride" | "maxLength" | "idSeparator">
>;

/**
 * Overrides read field by field, each integer in its option's range (a mismatch throws what
 * `f` makes of it); an absent one stays absent (an undefined would hide the preset's value).
 */
export function readWindowOverrides(f: Fields): WindowOverrides {
  const out: WindowOverrides = {};
  for (const key of ["window", "stride", "maxLength"] as const)
    if (f.has(key)) out[key] = f.integer(key, WINDOW_OPTIONS[key].min);
  const idSeparator = f.optionalString("idSeparator");
  if (idSeparator !== undefined) out.idSeparator = idSeparator;
  return out;
}
