// The one positional of a command declared `min: 1, max: 1`: the parser has checked it is there, typed here once.
import { UsageError } from "@convkit/io";

/** `args`' only element (a UsageError naming `name` if the parser let anything else through). */
export function onePositional(args: readonly string[], name: string): string {
  const [only] = args;
  if (only === undefined || args.length !== 1)
    throw new UsageError(`expected one ${name}, found ${args.length}`);
  return only;
}
