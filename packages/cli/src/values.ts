// Option values every app parses the same way.
import { UsageError } from "@convkit/io";

/** `--shard I/N` (0 <= I < N) as [I, N]; undefined when the option is absent. */
export function parseShard(app: string, value: unknown): [number, number] | undefined {
  if (value === undefined) return undefined;
  const m = typeof value === "string" ? /^(\d+)\/(\d+)$/.exec(value) : null;
  if (!m || Number(m[1]) >= Number(m[2])) throw new UsageError(`${app}: --shard takes I/N with 0 <= I < N`);
  return [Number(m[1]), Number(m[2])];
}
