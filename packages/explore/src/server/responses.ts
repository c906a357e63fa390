// The Responses view's data: iKAT 2025 runs' responses per turn beside the topics' gold, citations resolved.
import { open } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { type Ikat25Scored, type Ikat25Turn, type IkatTopic, rankIkat25References } from "@convkit/formats";
import { at } from "../shared/checked.js";
import type {
  CitationView,
  ResponseView,
  RunTurnView,
  TurnSummary,
  TurnView,
} from "../shared/responses-answers.js";
import { type Page, page } from "./paging.js";

/** One turn of a 2025 run, as @convkit/formats' reader (readIkat25Run) gives it. */
export type Run25Turn = Ikat25Turn;

/** Where a cited passage's text comes from (the passage files given: PassageFile). */
export interface PassageSource {
  passage(id: string): Promise<string | undefined>;
}

/** Judgments: per turn id, each judged passage's grade (trec-eval's loadQrels). */
export type Judgments = ReadonlyMap<string, ReadonlyMap<string, number>>;

interface GoldTurn {
  id: string;
  topic: IkatTopic;
  turn: number;
  utterance: string;
  resolved: string;
  response: string;
  citations: string[];
  ptkbs: { id: string | null; text: string }[];
}

/** What is kept of a run's turn: its responses, the size of its ranking and the ranking's top. */
interface KeptTurn {
  metadata: Run25Turn["metadata"];
  references: number;
  top: Ikat25Scored[];
  responses: Run25Turn["responses"];
}

/** How many of a turn's references the Responses view lists (the Runs view shows as many). */
const TOP_REFERENCES = 20;

export interface ResponseSetOptions {
  topics: readonly IkatTopic[];
  runs: readonly { name: string; turns: AsyncIterable<Run25Turn[]> }[];
  passages: readonly PassageSource[];
  qrels?: Judgments;
  /** Per run, a file to write its references to as TREC run lines (for the Runs view's rankings). */
  trecOut?: readonly string[];
  /** Whether the Runs view ranks the references (set by the explorer once its RunSet is open). */
  ranked?: () => boolean;
}

/** A topic turn's id as 2025 runs write it: `<topic number>_<turn>`. */
const turnKey = (topic: string, turn: number): string => `${topic}_${turn}`;

/** Turns of the topics (their order) and of the runs, each run's responses kept per turn. */
export class ResponseSet {
  private constructor(
    readonly names: string[],
    private readonly order: string[],
    private readonly gold: Map<string, GoldTurn>,
    private readonly kept: Map<string, KeptTurn>[],
    private readonly passages: readonly PassageSource[],
    private readonly qrels: Judgments | undefined,
    private readonly ranked: () => boolean,
  ) {}

  static async open(o: ResponseSetOptions): Promise<ResponseSet> {
    const gold = new Map<string, GoldTurn>();
    const order: string[] = [];
    for (const t of o.topics)
      for (const u of t.turns) {
        const id = turnKey(t.number, u.turn_id);
        if (gold.has(id)) continue;
        order.push(id);
        gold.set(id, {
          id,
          topic: t,
          turn: u.turn_id,
          utterance: u.utterance,
          resolved: u.resolved_utterance,
          response: u.response,
          citations: (u.citations ?? u.response_provenance).map(String),
          ptkbs: goldPtkbs(t, u),
        });
      }
    const seen = new Set(order);
    const kept: Map<string, KeptTurn>[] = [];
    for (const [r, run] of o.runs.entries()) {
      const m = new Map<string, KeptTurn>();
      const trecPath = o.trecOut?.[r];
      const out = trecPath === undefined ? undefined : await open(trecPath, "w");
      try {
        for await (const batch of run.turns) {
          let lines = "";
          for (const t of batch) {
            // A repeated turn: the first line counts (as for the rankings written beside).
            if (m.has(t.turn_id)) continue;
            m.set(t.turn_id, {
              metadata: t.metadata,
              references: t.references.length,
              top: rankIkat25References(t.references).slice(0, TOP_REFERENCES),
              responses: t.responses,
            });
            if (!seen.has(t.turn_id)) {
              seen.add(t.turn_id);
              order.push(t.turn_id);
            }
            if (out) lines += trecLines(t);
          }
          if (out && lines) await out.write(lines);
        }
      } finally {
        await out?.close();
      }
      kept.push(m);
    }
    return new ResponseSet(
      o.runs.map((r) => r.name),
      order,
      gold,
      kept,
      o.passages,
      o.qrels,
      o.ranked ?? (() => false),
    );
  }

  get turnCount(): number {
    return this.order.length;
  }

  /** Turns whose id or utterance contains `q` (any case), with per run its responses and relevant citations. */
  turns(q: string, offset: number, limit: number): Page<TurnSummary> {
    const needle = q.trim().toLowerCase();
    const hits =
      needle === ""
        ? this.order
        : this.order.filter(
            (id) =>
              id.toLowerCase().includes(needle) ||
              (this.gold.get(id)?.utterance.toLowerCase().includes(needle) ?? false),
          );
    return page(hits, offset, limit, (id) => ({
      id,
      utterance: this.gold.get(id)?.utterance ?? "",
      responses: this.kept.map((m) => m.get(id)?.responses.length ?? null),
      relevant: this.kept.map((m) => {
        const t = m.get(id);
        if (!t || !this.qrels) return null;
        return t.responses.reduce(
          (n, r) => n + r.citations.filter((c) => (this.grade(id, c.id) ?? 0) >= 1).length,
          0,
        );
      }),
    }));
  }

  /** A turn: the topics' utterances and gold, each run's responses with citations resolved. */
  async turn(id: string): Promise<TurnView | undefined> {
    const place = this.order.indexOf(id);
    if (place < 0) return undefined;
    const g = this.gold.get(id);
    const ptkbText = new Map(g?.topic.ptkb.map((p) => [p.id, p.text]) ?? []);
    const runs: RunTurnView[] = [];
    for (const [r, m] of this.kept.entries()) {
      const t = m.get(id);
      const responses: ResponseView[] | null = t
        ? await Promise.all(
            t.responses.map(async (x) => ({
              text: x.text,
              citations: await Promise.all(x.citations.map((c) => this.cite(id, c.id, c.score))),
              ptkb: x.ptkb_provenance.map((p) => ({ id: p, text: ptkbText.get(p) ?? null })),
            })),
          )
        : null;
      const any = t ?? [...m.values()][0];
      runs.push({
        name: at(this.names, r),
        team_id: any?.metadata.team_id ?? "",
        run_id: any?.metadata.run_id ?? "",
        run_type: any?.metadata.run_type ?? "",
        references: t?.references ?? 0,
        top: (t?.top ?? []).map((x, i) => ({ rank: i + 1, ...x, grade: this.grade(id, x.id) })),
        responses,
      });
    }
    const [topic, turn] = splitTurnId(id);
    return {
      id,
      topic: g?.topic.number ?? topic,
      title: g?.topic.title ?? "",
      turn: g?.turn ?? turn,
      utterance: g?.utterance ?? null,
      resolved_utterance: g?.resolved ?? null,
      gold: g
        ? {
            response: g.response,
            citations: await Promise.all(g.citations.map((c) => this.cite(id, c))),
            ptkb: g.ptkbs,
          }
        : null,
      runs,
      prev: this.order[place - 1] ?? null,
      next: this.order[place + 1] ?? null,
      ranking: this.ranked(),
      passages: this.passages.length > 0,
      qrels: this.qrels !== undefined,
    };
  }

  /** The grade of passage `doc` for turn `id`: null when unjudged or without qrels. */
  grade(id: string, doc: string): number | null {
    return this.qrels?.get(id)?.get(doc) ?? null;
  }

  /** A citation with its passage's text (the first passage file holding it) and its grade. */
  private async cite(turn: string, doc: string, score?: number): Promise<CitationView> {
    let text: string | null = null;
    for (const p of this.passages) {
      const t = await p.passage(doc);
      if (t !== undefined) {
        text = t;
        break;
      }
    }
    return { id: doc, ...(score !== undefined ? { score } : {}), text, grade: this.grade(turn, doc) };
  }
}

/**
 * The PTKB statements a turn's gold names: 2025 topics give their texts (`relevant_ptkbs`), each
 * with its id where the topic's list holds it; older topics give ids, each with its text.
 */
function goldPtkbs(t: IkatTopic, u: IkatTopic["turns"][number]): { id: string | null; text: string }[] {
  if (u.relevant_ptkbs)
    return u.relevant_ptkbs.map((text) => ({ id: t.ptkb.find((p) => p.text === text)?.id ?? null, text }));
  return u.ptkb_provenance
    .map(String)
    .map((id) => ({ id, text: t.ptkb.find((p) => p.id === id)?.text ?? "" }));
}

/** `1-1_3` → ["1-1", 3] (a turn id of another shape: itself and 0). */
function splitTurnId(id: string): [string, number] {
  const m = /^(.*)_(\d+)$/.exec(id);
  const [, turn, n] = m ?? [];
  return turn !== undefined && n !== undefined ? [turn, Number(n)] : [id, 0];
}

/**
 * A turn's references as TREC run lines for the Runs view (which orders them itself, by score
 * then id): exact scores (JavaScript's shortest form, which trec_eval's reader parses); an id
 * with white space in it cannot be a TREC field and is left out.
 */
function trecLines(t: Run25Turn): string {
  if (/\s/.test(t.turn_id)) return "";
  return t.references
    .filter((r) => Number.isFinite(r.score) && !/\s/.test(r.id))
    .map((r, i) => `${t.turn_id} Q0 ${r.id} ${i + 1} ${r.score} ${t.metadata.run_id || "run"}\n`)
    .join("");
}

/**
 * Runs' names as the page shows them: file names, with their folder's name where two are alike
 * (`000/run.jsonl.gz`), never a whole path (a static export must not carry the machine's folders).
 */
export function shortNames(paths: readonly string[]): string[] {
  const base = paths.map((p) => basename(p));
  const named = paths.map((p, i) => {
    const b = at(base, i);
    return base.indexOf(b) === base.lastIndexOf(b) ? b : `${basename(dirname(p))}/${b}`;
  });
  return named.map((n, i) => (named.indexOf(n) === i ? n : `${n} (${i + 1})`));
}
