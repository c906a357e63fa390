// The Conversations view's data: gen:synthetic's (or ClariQ's) multi-turn records, indexed on disk.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { basename, join } from "node:path";
import { finished, pipeline } from "node:stream/promises";
import { syntheticRecords } from "@convkit/formats";
import { capBytes, InputError, openPayload, peek } from "@convkit/io";
import { readPickle } from "@convkit/pickle";
import { type ConversationsSummary, histogram, lengths } from "../shared/list-summary.js";
import type { IdDecoder } from "./clariq-ids.js";
import type { Dataset } from "./dataset.js";
import { LineFile, parseLine } from "./line-file.js";
import { type Page, page } from "./paging.js";
import { makeTempDir, removeTempDir } from "./temp-dirs.js";

interface Turn {
  question: string;
  answer: string;
}

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

/**
 * Qulac's record id (`topic-facet[-h1][-h2]-q`, as in qulac_hist012_dict) of a conversation whose
 * every turn has a full `topic-facet-question` id of the same facet; undefined otherwise.
 */
function qulacRecordId(turns: (string | undefined)[]): string | undefined {
  const parts = turns.map((x) => (x === undefined ? undefined : /^(\d+)-(\d+)-(\d+)$/.exec(x)));
  if (parts.some((p) => p === undefined || p === null)) return undefined;
  const [, t, f] = parts[0]!;
  if (!parts.every((p) => p![1] === t && p![2] === f)) return undefined;
  return [t, f, ...parts.map((p) => p![3])].join("-");
}

/** The same texts in any order (ClariQ's histories are sets). */
function sameTexts(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join("\u0000") === [...b].sort().join("\u0000");
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
      const plain = join(
        dir,
        `${basename(path).replace(/(\.pkl|\.jsonl)?(\.tar)?(\.gz|\.bz2)?$/, "")}.jsonl`,
      );
      const src = await openPayload(path);
      const { head: first, rest } = await peek(src.chunks, 1);
      if (first[0] === 0x80) {
        // Unpacked to memory or disk: no more than the whole-input cap (a bomb stops there).
        const records = syntheticRecords(
          src.name,
          await readPickle({ name: src.name, chunks: capBytes(src.name, rest) }),
        );
        const out = createWriteStream(plain);
        for (const r of records) {
          if (!out.write(`${JSON.stringify(r)}\n`)) await once(out, "drain");
        }
        out.end();
        await finished(out);
      } else await pipeline(capBytes(src.name, rest), createWriteStream(plain));
      const set = await SyntheticSet.index(plain, src.name);
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
      levels[l]!++;
      recordsByLevel[l]! += c.records;
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

  /** A context's records, paged, with ClariQ's and Qulac's ids decoded. */
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
    const slice: Page<number> = page(ids, offset, limit, (i) => i);
    const qulac = dataset?.qulac;
    // Qulac ids by the item a ClariQ id decodes to (unique by construction); without one, by the
    // facet's (question, answer) when exactly one row of the facet has them.
    const byText = (t: Turn) => qulac?.ofText(c.topic_id, c.facet_id, t.question, t.answer);
    const ctxParts = decoder?.contextParts(c.context_id);
    const ctxAgrees =
      ctxParts !== undefined &&
      ctxParts.topic_id === c.topic_id &&
      decoder!.context(c.context_id)?.facet_id === c.facet_id &&
      ctxParts.history.length === c.history.length;
    const history = c.history.map((t, i) => {
      const item = ctxAgrees ? decoder!.itemOf(ctxParts!, c.history, i) : undefined;
      const q = item === undefined ? byText(t) : qulac?.ofItem(c.topic_id, c.facet_id, item);
      return { ...t, ...(q ? { qulac_id: q } : {}) };
    });
    const records = [];
    for (const i of slice.items) {
      const r = (await this.lines.json(i)) as Record<string, unknown>;
      const question = String(r.question ?? "");
      const answer = String(r.answer ?? "");
      const decoded = typeof r.record_id === "number" ? decoder?.record(r.record_id) : undefined;
      const agrees =
        decoded !== undefined &&
        decoded.topic_id === c.topic_id &&
        decoded.facet_id === c.facet_id &&
        decoder!.questionText(c.topic_id, c.facet_id, decoded.question!) === question &&
        sameTexts(
          decoded.history.map((h) => decoder!.questionText(c.topic_id, c.facet_id, h) ?? ""),
          c.history.map((t) => t.question),
        );
      const item = agrees ? decoder!.recordParts(r.record_id as number)?.question : undefined;
      const qulacId =
        item === undefined ? byText({ question, answer }) : qulac?.ofItem(c.topic_id, c.facet_id, item);
      // A level-0 record's Qulac record id is its question's id: not shown twice.
      const qulacRecord =
        history.length === 0 ? undefined : qulacRecordId([...history.map((t) => t.qulac_id), qulacId]);
      records.push({
        line: i + 1,
        record_id:
          typeof r.record_id === "number" || typeof r.record_id === "string" ? r.record_id : undefined,
        question,
        answer,
        ...(qulacId ? { qulac_id: qulacId } : {}),
        ...(qulacRecord ? { qulac_record: qulacRecord } : {}),
        ...(decoded
          ? {
              clariq: {
                ...decoded,
                // The id says what the record says: same facet, history and current question.
                agrees,
              },
            }
          : {}),
      });
    }
    const facetNumber = Number(c.facet_id.replace(/^F/, ""));
    return {
      context_id: c.context_id,
      topic_id: c.topic_id,
      facet_id: c.facet_id,
      facet_desc: dataset?.facetDesc(c.facet_id),
      level: c.history.length,
      // ClariQ numbers single-turn contexts by their facet (F0985 → 985); multi-turn ones from 2000 on.
      id_kind:
        c.history.length === 0 && c.context_id === facetNumber
          ? ("facet number" as const)
          : ("multi-turn context" as const),
      history,
      ...(decoder ? { clariq_context: decoder.context(c.context_id) ?? null } : {}),
      records: { total: slice.total, offset: slice.offset, items: records },
    };
  }
}
