// What the route handlers share: the explorer's opened inputs as an interface (handlers never import the Explorer class), their table's type and their refusals (404, 400).
import type { Answers, ApiError, Meta, ParsedOf, RoutePath } from "../shared/api.js";
import type { IdDecoder } from "./clariq-ids.js";
import type { SyntheticSet } from "./conversations.js";
import type { Dataset } from "./dataset.js";
import type { EvalDictFile } from "./eval-dicts.js";
import type { PassageFile, Splitters } from "./passages.js";
import type { ResponseSet } from "./responses.js";
import type { RunSet } from "./runs.js";

/** The inputs named on the command line, opened once (the Explorer holds them). */
export interface Inputs {
  readonly dataset: Dataset | undefined;
  readonly synthetic: readonly SyntheticSet[];
  readonly evalDicts: readonly EvalDictFile[];
  readonly runs: RunSet | undefined;
  /** Per run, its pick per context or topic id (ClariQ runs). */
  readonly picks: readonly { run: string; byId: Map<number, string | null> }[];
  readonly passages: readonly PassageFile[];
  readonly splitters: Splitters;
  readonly decoder: IdDecoder | undefined;
  readonly responses: ResponseSet | undefined;
  meta(): Meta;
}

/** What a request gets: a status and a JSON body (the route's answer, or an error). */
export interface Answer {
  status: number;
  body: unknown;
}

/** Handlers of some of the routes of api.ts's table: validated parameters in, the route's answer out. */
export type Handlers<P extends RoutePath> = {
  [K in P]: (e: Inputs, p: ParsedOf<K>) => Promise<Answers[K]> | Answers[K];
};

/** An answer other than 200: 404 for an unknown id or file, 400 for a parameter out of range. */
export class Refusal {
  constructor(
    readonly status: 400 | 404,
    readonly body: ApiError,
  ) {}
}
export const notFound = (what: string) => new Refusal(404, { error: `no such ${what}` });
export const badParam = (parameter: string, error: string) => new Refusal(400, { error, parameter });

/** The `file`-th input of a kind, or a 404 naming how many there are. */
export function nth<T>(list: readonly T[], i: number, what: string): T {
  const x = list[i];
  if (x === undefined)
    throw new Refusal(404, {
      error: `no ${what} ${i}: ${list.length === 0 ? "none was given" : `there are ${list.length} (0–${list.length - 1})`}`,
      parameter: "file",
    });
  return x;
}
