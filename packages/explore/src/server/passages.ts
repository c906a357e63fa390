// The Passages view's data: a document's sentences and iKAT passage windows under two splitters.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { jsonDocument } from "@convkit/formats";
import { InputError } from "@convkit/io";
import { Fields, inputMismatch, parseJsonText } from "@convkit/json";
import {
  IKAT,
  loadSplitter,
  passagePairs,
  prepareText,
  type SentenceSplitter,
  sentenceTexts,
  unwrapPassage,
  windowPassages,
} from "@convkit/segment";
import type { DocSummary, DocView, OfficialPassage } from "../shared/api.js";
import { at, got } from "../shared/checked.js";
import { LineFile, parseLine } from "./line-file.js";
import { type Page, page } from "./paging.js";

const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");

interface DocEntry {
  id: string;
  /** Lines of the file holding it: one document line, or its official passages. */
  lines: number[];
  /** Its text in lower case, for search (dropped when the file's texts pass {@link SEARCH_CHARS}). */
  search?: string;
  /** The same text as written, for the snippets shown (a reader sees the original case). */
  text?: string;
}

/**
 * Up to 40 characters either side of the first hit of `needle` (lower case) in the document's
 * text as written. Lower-casing keeps the positions except for a few letters (`İ` becomes two
 * code units); then the hit is looked for in the original text, ignoring case, instead.
 */
export function snippetOf(d: { search?: string; text?: string }, needle: string): string | undefined {
  if (d.search === undefined || d.text === undefined) return undefined;
  let at = d.search.indexOf(needle);
  let len = needle.length;
  if (at >= 0 && d.search.length !== d.text.length) {
    const m = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "iu").exec(d.text);
    if (!m) return undefined;
    [at, len] = [m.index, m[0].length];
  }
  if (at < 0) return undefined;
  return `…${d.text.slice(Math.max(0, at - 40), at + len + 40).replace(/\s+/g, " ")}…`;
}

/** The most text kept in memory for passage search; past it, search covers ids only. */
const SEARCH_CHARS = 64 << 20;

/**
 * Documents (ClueWeb22 or `{id, contents}` JSONL) or iKAT's official passages (`{doc_id,
 * passage_id, passage_text}`): an index of which lines hold each document. An official document
 * is put back together from its passages: passage k+1 starts at the sixth sentence of passage k,
 * so each one adds what follows the overlap.
 */
export class PassageFile {
  private readonly docs: DocEntry[] = [];
  private readonly byId = new Map<string, DocEntry>();
  private constructor(
    readonly name: string,
    readonly kind: "documents" | "official passages",
    private readonly lines: LineFile,
  ) {}

  static async open(path: string): Promise<PassageFile> {
    let kind: "documents" | "official passages" | undefined;
    const docs: DocEntry[] = [];
    const byId = new Map<string, DocEntry>();
    let chars = 0;
    const lines = await LineFile.index(path, (line, i) => {
      const v = parseLine(path, i, line.toString("utf8")) as Record<string, unknown>;
      let id: string;
      let text: string;
      if (typeof v?.doc_id === "string" && typeof v.passage_text === "string") {
        kind ??= "official passages";
        id = v.doc_id;
        text = v.passage_text;
      } else {
        kind ??= "documents";
        ({ id, text } = jsonDocument(path, v, i + 1));
      }
      let d = byId.get(id);
      if (!d) {
        d = { id, lines: [] };
        byId.set(id, d);
        docs.push(d);
      }
      d.lines.push(i);
      chars += text.length;
      if (chars <= SEARCH_CHARS) {
        d.search = `${d.search ?? ""}\n${text.toLowerCase()}`;
        d.text = `${d.text ?? ""}\n${text}`;
      }
    });
    if (chars > SEARCH_CHARS)
      for (const d of docs) {
        delete d.search;
        delete d.text;
      }
    if (kind === undefined) throw new InputError(path, { line: 1 }, "documents or passages", "an empty file");
    const f = new PassageFile(path, kind, lines);
    f.docs.push(...docs);
    for (const d of docs) f.byId.set(d.id, d);
    return f;
  }

  get count(): number {
    return this.docs.length;
  }

  /**
   * One passage's text by its id: a record of that id (`{id, contents}`), or for official passages
   * `DOC:K` as passage K of document DOC (its text without the file's wrapping newlines).
   */
  async passage(id: string): Promise<string | undefined> {
    if (this.kind === "documents") {
      const line = this.byId.get(id)?.lines[0];
      return line === undefined
        ? undefined
        : jsonDocument(this.name, await this.lines.json(line), line + 1).text;
    }
    const colon = id.lastIndexOf(":");
    const d = colon < 0 ? undefined : this.byId.get(id.slice(0, colon));
    if (!d) return undefined;
    const k = id.slice(colon + 1);
    for (const i of d.lines) {
      const r = (await this.lines.json(i)) as { passage_id: unknown; passage_text: string };
      if (String(r.passage_id) === k) return unwrapPassage(r.passage_text) ?? r.passage_text;
    }
    return undefined;
  }

  /** Documents whose id or text contains `q` (any case); a text hit comes with a snippet. */
  list(q: string, offset: number, limit: number): Page<DocSummary> {
    const needle = q.trim().toLowerCase();
    const hits =
      needle === ""
        ? this.docs
        : this.docs.filter((d) => d.id.toLowerCase().includes(needle) || d.search?.includes(needle));
    return page(hits, offset, limit, (d) => {
      const snippet = needle === "" ? undefined : snippetOf(d, needle);
      return { id: d.id, lines: d.lines.length, ...(snippet ? { snippet } : {}) };
    });
  }

  /**
   * The document's text and, for official passages, the passages as published. Official files
   * hold some passages of a document (those judged): the text is put back together from its
   * longest run of consecutive passages, and `firstPassage` is the number of the first, so a
   * window k over the text is passage firstPassage + k of the document.
   */
  async text(id: string): Promise<
    | {
        text: string;
        firstPassage: number;
        official?: { id: string; text: string; md5: string; used: boolean }[];
      }
    | undefined
  > {
    const d = this.byId.get(id);
    if (!d) return undefined;
    const values = await Promise.all(d.lines.map((i) => this.lines.json(i)));
    if (this.kind === "documents")
      return { text: jsonDocument(this.name, values[0], at(d.lines, 0) + 1).text, firstPassage: 0 };
    const records = values.map((v) => v as { doc_id: string; passage_id: string; passage_text: string });
    const byK = new Map<number, string>();
    for (const r of records) {
      const t = unwrapPassage(r.passage_text);
      if (t !== undefined) byK.set(Number(r.passage_id), t);
    }
    const boundary = new Map(passagePairs(records).map((p) => [p.k, p.boundary]));
    // The longest run k, k+1, … whose every pair has a boundary (the first such run on ties).
    const ks = [...byK.keys()].sort((a, b) => a - b);
    let first = ks[0] ?? 0;
    let last = first;
    for (const k of ks) {
      let e = k;
      while (boundary.has(e) && byK.has(e + 1)) e++;
      if (e - k > last - first) [first, last] = [k, e];
    }
    let text = byK.get(first) ?? "";
    for (let k = first; k < last; k++) text += got(byK, k + 1).slice(got(byK, k).length - got(boundary, k));
    return {
      text,
      firstPassage: first,
      official: records
        .map((r) => {
          const t = unwrapPassage(r.passage_text) ?? r.passage_text;
          const k = Number(r.passage_id);
          return { id: `${r.doc_id}:${r.passage_id}`, text: t, md5: md5(t), used: k >= first && k <= last };
        })
        .sort((a, b) => Number(a.id.split(":").at(-1)) - Number(b.id.split(":").at(-1))),
    };
  }
}

/** The spaCy model the official iKAT passages were cut with. */
const OFFICIAL_MODEL = "en_core_web_sm 3.4.1";

/** Splitters by name, loaded once (spaCy's model is read on first use). */
export class Splitters {
  private readonly loaded = new Map<string, Promise<SentenceSplitter>>();
  /** The spaCy model's name and version (its meta.json), when one is given. */
  readonly model: { name: string; version: string } | undefined;
  constructor(
    readonly names: readonly [string, string],
    private readonly spacyModel: string | undefined,
  ) {
    this.model = spacyModel === undefined ? undefined : modelMeta(spacyModel);
  }

  /**
   * A document under both splitters, and each official passage against the window of the same
   * id: equal md5, or where the texts first part and which boundary of the window that is.
   */
  async explain(
    id: string,
    t: {
      text: string;
      firstPassage: number;
      official?: { id: string; text: string; md5: string; used: boolean }[];
    },
    kind: DocView["kind"],
  ): Promise<DocView> {
    const c = await this.compare(id, t.text, t.firstPassage);
    const official: OfficialPassage[] | null =
      t.official?.map((o) => ({
        ...o,
        vs: c.sides.map((s) => {
          const w = s.passages.find((x) => x.id === o.id);
          if (!w) return { splitter: s.splitter, same: null };
          if (w.md5 === o.md5) return { splitter: s.splitter, same: true };
          return { splitter: s.splitter, same: false, diff: firstDifference(o.text, w, s.sentences) };
        }),
      })) ?? null;
    const usesSpacy = this.names.includes("spacy");
    const m = this.model;
    const modelNote =
      usesSpacy && t.official && m && `${m.name} ${m.version}` !== OFFICIAL_MODEL
        ? `The official passages were cut with ${OFFICIAL_MODEL}; this page loaded ${m.name} ${m.version}, so spacy's cuts can differ from theirs where the two models disagree.`
        : undefined;
    return { ...c, firstPassage: t.firstPassage, official, kind, ...(modelNote ? { modelNote } : {}) };
  }

  get(name: string): Promise<SentenceSplitter> {
    let s = this.loaded.get(name);
    if (!s) {
      s = loadSplitter(name, this.spacyModel);
      this.loaded.set(name, s);
    }
    return s;
  }

  /**
   * Both splitters' sentences and iKAT windows of a document, and where their cuts differ; window
   * k is passage `firstPassage + k` (a text put back together from official passages k0, k0+1, …).
   */
  async compare(id: string, raw: string, firstPassage = 0) {
    const text = prepareText(raw, IKAT);
    const sides = [];
    for (const name of this.names) {
      const starts = text.length === 0 ? [] : (await this.get(name))(text);
      const sentences = sentenceTexts(text, starts, IKAT);
      const passages = windowPassages(sentences, IKAT).map((p, k) => ({
        id: `${id}${IKAT.idSeparator}${firstPassage + k}`,
        md5: md5(p),
        // Sentences [first, first + window) of this side.
        first: k * IKAT.stride,
        sentences: Math.min(IKAT.window, sentences.length - k * IKAT.stride),
        text: p,
      }));
      sides.push({ splitter: name, starts, sentences, passages });
    }
    const [a, b] = sides as [(typeof sides)[0], (typeof sides)[0]];
    const inB = new Set(b.starts);
    const inA = new Set(a.starts);
    return {
      id,
      text,
      window: IKAT.window,
      stride: IKAT.stride,
      sides,
      only: [a.starts.filter((s) => !inB.has(s)), b.starts.filter((s) => !inA.has(s))],
    };
  }
}

/** A spaCy pipeline's `lang_name` and version from its meta.json (unknown when unreadable). */
function modelMeta(dir: string): { name: string; version: string } {
  try {
    const path = join(dir, "meta.json");
    const m = Fields.of(parseJsonText(path, readFileSync(path, "utf8")), inputMismatch(path));
    const [lang, name, version] = ["lang", "name", "version"].map((k) => m.optionalString(k) ?? "?");
    return { name: `${lang}_${name}`, version: version ?? "?" };
  } catch {
    return { name: basename(dir), version: "unknown" };
  }
}

/**
 * Where an official passage and our window of the same id first differ, said as a sentence
 * boundary: the window starts elsewhere (its first sentence), ends elsewhere (one text is the
 * other's start), or a boundary inside moved (the sentence of the window where they part).
 */
function firstDifference(
  official: string,
  w: { text: string; first: number; sentences: number },
  sentences: readonly string[],
): { at: number; official: string; ours: string; note: string } {
  const ours = w.text;
  let at = 0;
  while (at < official.length && at < ours.length && official[at] === ours[at]) at++;
  const around = (s: string) =>
    `${at > 30 ? "…" : ""}${s.slice(Math.max(0, at - 30), at + 50)}${at + 50 < s.length ? "…" : ""}`;
  // Sentence k of the window holds character `at` (sentences are joined by one space).
  let k = 0;
  let pos = 0;
  for (; k < w.sentences - 1; k++) {
    const len = (sentences[w.first + k] ?? "").length + 1;
    if (pos + len > at) break;
    pos += len;
  }
  const n = w.first + k + 1;
  let note: string;
  if (at === 0)
    note = `the window's first boundary moved: the official passage starts elsewhere than sentence ${w.first + 1}`;
  else if (at === ours.length || at === official.length)
    note = `the window's last boundary moved: ${at === ours.length ? "the official passage goes on" : "ours goes on"} after sentence ${w.first + w.sentences}`;
  else if (at === pos)
    note = `a boundary moved at sentence ${n} (the official passage cuts sentence ${n - 1} or ${n} elsewhere)`;
  else
    note = `inside sentence ${n} (${k + 1} of the window): the official passage has a boundary here this splitter does not, or other text`;
  return { at, official: around(official), ours: around(ours), note };
}
