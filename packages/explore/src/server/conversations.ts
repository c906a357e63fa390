// The Conversations view's data: gen:synthetic's (or ClariQ's) multi-turn records, indexed on disk.
import { open } from "node:fs/promises";
import { basename } from "node:path";
import { InputError } from "@convkit/io";
import { at } from "../shared/checked.js";
import { type ConversationsSummary, histogram, lengths } from "../shared/list-summary.js";
import type { IdDecoder } from "./clariq-ids.js";
import { contextView, type Turn } from "./context-view.js";
import type { Dataset } from "./dataset.js";
import { LineFile, parseLine } from "./line-file.js";
import { page } from "./paging.js";
import { plainJsonl } from "./synthetic-jsonl.js";
import { makeTempDir, removeTempDir } from "./temp-dirs.js";

/** A conversation context: a facet and the questions already asked (its history). */
interface ContextEntry {
  /** Its place in file order. */
  index: number;
  context_id: number;
  topic_id: number;
  facet_id: string;
  history: Turn[];
  /** Where its records are: recordIds[first .. first + records). */
  first: number;
  records: number;
}

const CONTEXT_KEY = Buffer.from('"context_id":');

/** The integer after `"context_id":` in a JSON line (a key: inside strings the quotes are escaped). */
function contextIdOf(line: Buffer): number | undefined {
  const at = line.indexOf(CONTEXT_KEY);
  if (at < 0) return undefined;
  let i = at + CONTEXT_KEY.length;
  while (line[i] === 32) i++;
  let v = 0;
  let digits = 0;
  for (; line[i]! >= 48 && line[i]! <= 57; i++, digits++) v = v * 10 + line[i]! - 48;
  return digits > 0 && digits < 16 ? v : undefined;
}

/** Which contexts a filtered list keeps (a search, a level). */
export type ContextFilter = (c: {
  topic_id: number;
  facet_id: string;
  level: number;
  history: readonly Turn[];
}) => boolean;

function isTurn(v: unknown): v is Turn {
  return typeof v === "object" && v !== null && typeof (v as Turn).question === "string";
}

/**
 * One synthetic set (JSONL of `{record_id, topic_id, facet_id, initial_request, question, answer,
 * conversation_context, context_id}`): an index of line offsets and, per context, its facet,
 * history and records. Only a context's first record is parsed while indexing; the others are
 * read from disk when a page shows them.
 */
export class SyntheticSet {
  private readonly contexts: ContextEntry[] = [];
  private readonly byContext = new Map<number, ContextEntry>();
  private recordIds = new Int32Array(0);
  private constructor(
    readonly name: string,
    private readonly lines: LineFile,
  ) {}

  /**
   * A synthetic set: JSONL is indexed where it is; a pickle (ClariQ's published `{record_id:
   * {...}}` or gen:synthetic's, plain or in a tar.gz) or a compressed JSONL is first written out as
   * plain JSONL to a temporary file (the index needs byte offsets into plain lines).
   */
  static async open(path: string): Promise<SyntheticSet> {
    const head = Buffer.alloc(1);
    const fh = await open(path, "r");
    try {
      await fh.read(head, 0, 1, 0);
    } finally {
      await fh.close();
    }
    if (head[0] === 0x7b) return SyntheticSet.index(path, path);
    const dir = makeTempDir("convkit-explore-synthetic-");
    try {
      const { plain, name } = await plainJsonl(path, dir);
      const set = await SyntheticSet.index(plain, name);
      set.temp = dir;
      return set;
    } catch (e) {
      removeTempDir(dir);
      throw e;
    }
  }

  private temp: string | undefined;

  close(): void {
    removeTempDir(this.temp);
  }

  private static async index(path: string, name: string): Promise<SyntheticSet> {
    const found: ContextEntry[] = [];
    const byId = new Map<number, ContextEntry>();
    const requests = new Map<number, string>();
    let lineContext = new Int32Array(1 << 16);
    const lines = await LineFile.index(path, (line, i) => {
      let id = contextIdOf(line);
      let c = id === undefined ? undefined : byId.get(id);
      if (c === undefined) {
        const r = parseLine(name, i, line.toString("utf8")) as Record<string, unknown>;
        const cc = r?.conversation_context;
        if (
          typeof r !== "object" ||
          r === null ||
          typeof r.context_id !== "number" ||
          typeof r.topic_id !== "number" ||
          typeof r.facet_id !== "string" ||
          !Array.isArray(cc) ||
          !cc.every(isTurn)
        )
          throw new InputError(
            name,
            { line: i + 1 },
            "a synthetic record (context_id, topic_id, facet_id, conversation_context, …)",
            line.toString("utf8", 0, Math.min(line.length, 60)),
          );
        id = r.context_id;
        c = {
          index: found.length,
          context_id: id,
          topic_id: r.topic_id,
          facet_id: r.facet_id,
          history: cc.map((t) => ({ question: t.question, answer: String(t.answer ?? "") })),
          first: 0,
          records: 0,
        };
        byId.set(id, c);
        found.push(c);
        if (typeof r.initial_request === "string" && !requests.has(r.topic_id))
          requests.set(r.topic_id, r.initial_request);
      }
      c.records++;
      if (i >= lineContext.length) {
        const g = new Int32Array(lineContext.length * 2);
        g.set(lineContext);
        lineContext = g;
      }
      lineContext[i] = c.index;
    });
    const set = new SyntheticSet(name, lines);
    // Context index per line → records grouped per context (counting sort keeps file order).
    let next = 0;
    for (const c of found) {
      c.first = next;
      next += c.records;
    }
    const fill = new Int32Array(found.length);
    set.recordIds = new Int32Array(lines.count);
    // Per line of the file: left with its `!` (indices in range by construction), as in the other hot loops.
    for (let i = 0; i < lines.count; i++) {
      const c = found[lineContext[i]!]!;
      set.recordIds[c.first + fill[lineContext[i]!]!++] = i;
    }
    set.contexts.push(...found);
    for (const c of found) set.byContext.set(c.context_id, c);
    for (const [t, r] of requests) set.requests.set(t, r);
    return set;
  }

  get records(): number {
    return this.lines.count;
  }

  summary() {
    const levels = [0, 0, 0, 0];
    const recordsByLevel = [0, 0, 0, 0];
    const topics = new Set<number>();
    for (const c of this.contexts) {
      const l = Math.min(c.history.length, 3);
      levels[l] = at(levels, l) + 1;
      recordsByLevel[l] = at(recordsByLevel, l) + c.records;
      topics.add(c.topic_id);
    }
    return {
      file: basename(this.name),
      records: this.records,
      contexts: this.contexts.length,
      topics: topics.size,
      contextsByLevel: levels,
      recordsByLevel,
    };
  }

  /**
   * Per topic, its facets, contexts and records; with a filter, only the contexts it keeps count
   * and topics with none are left out.
   */
  topics(keep?: ContextFilter): { topic_id: number; facets: number; contexts: number; records: number }[] {
    const m = new Map<number, { topic_id: number; facets: Set<string>; contexts: number; records: number }>();
    for (const c of this.contexts) {
      if (keep && !keep({ ...c, level: c.history.length })) continue;
      let t = m.get(c.topic_id);
      if (!t) {
        t = { topic_id: c.topic_id, facets: new Set(), contexts: 0, records: 0 };
        m.set(c.topic_id, t);
      }
      t.facets.add(c.facet_id);
      t.contexts++;
      t.records += c.records;
    }
    return [...m.values()]
      .sort((a, b) => a.topic_id - b.topic_id)
      .map((t) => ({
        topic_id: t.topic_id,
        facets: t.facets.size,
        contexts: t.contexts,
        records: t.records,
      }));
  }

  /**
   * The column summaries of the contexts `keep` keeps (all without it): their topics, levels,
   * records per context and the lengths of their topics' initial requests (`request` gives one).
   */
  summarize(
    keep: ContextFilter | undefined,
    request: (topic: number) => string | undefined,
  ): ConversationsSummary {
    const kept = keep ? this.contexts.filter((c) => keep({ ...c, level: c.history.length })) : this.contexts;
    const topics = [...new Set(kept.map((c) => c.topic_id))];
    return {
      topics: topics.length,
      contexts: kept.length,
      records: kept.reduce((n, c) => n + c.records, 0),
      level: histogram(kept.map((c) => c.history.length)),
      records_per_context: histogram(kept.map((c) => c.records)),
      request_length: lengths(topics.flatMap((t) => request(t) ?? [])),
    };
  }

  /**
   * A topic's facets, each with its context tree: level-0 contexts (no history), level 1 (one
   * question asked) and level 2 under the level-1 context whose history is a prefix of theirs.
   */
  topic(topicId: number) {
    const facets = new Map<string, ContextEntry[]>();
    for (const c of this.contexts)
      if (c.topic_id === topicId) {
        const l = facets.get(c.facet_id);
        if (l) l.push(c);
        else facets.set(c.facet_id, [c]);
      }
    return [...facets].map(([facet_id, cs]) => {
      const key = (h: Turn[]) => h.map((t) => t.question).join("\u0000");
      const byHistory = new Map(cs.map((c) => [key(c.history), c]));
      const node = (c: ContextEntry) => ({
        context_id: c.context_id,
        level: c.history.length,
        history: c.history.map((t) => ({ question: t.question, answer: t.answer })),
        records: c.records,
      });
      const children = (c: ContextEntry) =>
        cs
          .filter(
            (d) =>
              d.history.length === c.history.length + 1 &&
              byHistory.get(key(d.history.slice(0, c.history.length))) === c,
          )
          .sort((a, b) => a.context_id - b.context_id);
      const roots = cs.filter((c) => c.history.length === 0);
      // Level-1 contexts whose parent is missing (a subset of topics) become roots too.
      const orphans = cs.filter(
        (c) => c.history.length > 0 && !byHistory.has(key(c.history.slice(0, c.history.length - 1))),
      );
      return {
        facet_id,
        contexts: cs.length,
        tree: [...roots, ...orphans].map((r) => ({
          ...node(r),
          children: children(r).map((c1) => ({ ...node(c1), children: children(c1).map(node) })),
        })),
      };
    });
  }

  hasContext(id: number): boolean {
    return this.byContext.has(id);
  }

  /** A context's topic, facet and history (no records read). */
  entry(id: number): { topic_id: number; facet_id: string; history: Turn[] } | undefined {
    return this.byContext.get(id);
  }

  /** Every context's id, topic, facet and history, in file order (no records read). */
  entries(): readonly { context_id: number; topic_id: number; facet_id: string; history: readonly Turn[] }[] {
    return this.contexts;
  }

  /** Every record's context and its question and answer texts, read from disk in one pass (for an index built on first use). */
  async eachRecord(on: (context_id: number, question: string, answer: string) => void): Promise<void> {
    const step = 4096;
    for (let from = 0; from < this.lines.count; from += step) {
      const lines = await this.lines.read(from, Math.min(this.lines.count, from + step));
      for (const [k, text] of lines.entries()) {
        const r = parseLine(this.name, from + k, text) as Record<string, unknown>;
        if (typeof r.context_id === "number")
          on(r.context_id, String(r.question ?? ""), String(r.answer ?? ""));
      }
    }
  }

  /** A topic's initial request as its records give it. */
  requestOf(topic: number): string | undefined {
    return this.requests.get(topic);
  }

  private readonly requests = new Map<number, string>();

  /** A context's records, paged, with ClariQ's and Qulac's ids decoded (context-view.ts). */
  async context(
    id: number,
    offset: number,
    limit: number,
    dataset: Dataset | undefined,
    decoder: IdDecoder | undefined,
  ) {
    const c = this.byContext.get(id);
    if (!c) return undefined;
    const ids = Array.from(this.recordIds.subarray(c.first, c.first + c.records));
    return contextView(
      c,
      page(ids, offset, limit, (i) => i),
      (i) => this.lines.json(i),
      dataset,
      decoder,
    );
  }
}
