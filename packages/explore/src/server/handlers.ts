// The API's handlers, one per route of api.ts's table (by view: handlers-*.ts), and the one entry that answers a request.
import { type ParsedOf, parseParams, ROUTES, type RoutePath } from "../shared/api.js";
import { DATASET_HANDLERS } from "./handlers-dataset.js";
import { EVALDICT_HANDLERS, picksOf } from "./handlers-evaldicts.js";
import { RUNS_HANDLERS } from "./handlers-runs.js";
import { type Answer, badParam, type Handlers, type Inputs, notFound, nth, Refusal } from "./inputs.js";
import { questionView } from "./questions.js";

const HANDLERS: Handlers<RoutePath> = {
  meta: (e) => e.meta(),
  ...DATASET_HANDLERS,
  ...EVALDICT_HANDLERS,
  ...RUNS_HANDLERS,
  "passages/docs": (e, p) => nth(e.passages, p.file, "passage file").list(p.q ?? "", p.offset, p.limit),
  "passages/doc": async (e, p) => {
    const f = nth(e.passages, p.file, "passage file");
    const t = await f.text(p.id);
    if (!t) throw notFound(`document ${JSON.stringify(p.id)}`);
    return e.splitters.explain(p.id, t, f.kind);
  },
  "responses/turns": (e, p) => {
    if (!e.responses) throw notFound("responses: give iKAT 2025 runs (--run) or topics (--topics)");
    return e.responses.turns(p.q ?? "", p.offset, p.limit);
  },
  "responses/turn": async (e, p) => {
    const t = await e.responses?.turn(p.id);
    if (!t) throw notFound(`turn ${JSON.stringify(p.id)}`);
    return t;
  },
  question: async (e, p) => {
    if (!/^Q\d{1,9}$/.test(p.id))
      throw badParam(
        "id",
        `id must be a question id (Q and digits, as Q00706), not ${JSON.stringify(p.id.slice(0, 40))}`,
      );
    if (!e.dataset?.questionBank)
      throw new Refusal(404, { error: "no question bank: give --data (ClariQ's folder)", parameter: "id" });
    const v = await questionView(e, p.id, p.offset, p.limit);
    if (!v)
      throw new Refusal(404, {
        error: `no question ${p.id} in question_bank.tsv or ClariQ's rows`,
        parameter: "id",
      });
    // Multi-turn runs pick one question per context of a multi-turn dict; the others rank per topic.
    const multi = new Set(
      e.picks
        .filter((k) => e.evalDicts.some((d) => !d.keyedByFacet && d.covers(k.byId.keys())))
        .map((k) => k.run),
    );
    for (const c of v.contexts.items)
      if (c.conversation && e.evalDicts.some((d) => !d.keyedByFacet && d.has(c.context)))
        c.picks = picksOf(e, false, c.context).map((k) => ({ ...k, is_this: k.question === p.id }));
    const names = e.runs?.names ?? [];
    return {
      ...v,
      rankings: v.rankings.map((r) => ({ ...r, runs: r.runs.filter((x) => !multi.has(x.run)) })),
      runs: {
        single_turn: names.filter((n) => !multi.has(n)),
        // A lone multi-turn run has picks but no rankings (no comparison): named from its picks.
        multi_turn: [...multi],
      },
    };
  },
};

/** Parses, validates, answers: every error is a JSON `{error, parameter?}` with its status. */
export async function answer(e: Inputs, path: string, q: URLSearchParams): Promise<Answer> {
  if (!Object.hasOwn(ROUTES, path)) return { status: 404, body: { error: `no such endpoint: ${path}` } };
  const route = path as RoutePath;
  const parsed = parseParams(route, q);
  if (!parsed.ok) return { status: 400, body: parsed.error };
  try {
    // One route's handler with that route's parsed parameters (TypeScript cannot pair them by itself).
    const h = HANDLERS[route] as (e: Inputs, p: ParsedOf<RoutePath>) => unknown;
    return { status: 200, body: await h(e, parsed.params) };
  } catch (err) {
    if (err instanceof Refusal) return { status: err.status, body: err.body };
    throw err;
  }
}
