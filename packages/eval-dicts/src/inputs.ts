// gen:eval's inputs: per-topic candidate documents (TREC run or pickle), document texts, facet qrels.
import {
  collect,
  detectFormat,
  readClueWeb22,
  readJsonl,
  readQrels,
  readRun,
  readTrecWeb,
} from "@convkit/formats";
import { InputError } from "@convkit/io";
import { PyTuple, type PyValue, readPickleFile } from "@convkit/pickle";

/**
 * Candidate documents per topic, best first, cut at `depth`: from a TREC run (trec_eval's order:
 * score descending, ties by docno descending) or a pickle `{topic: [docno, …]}`,
 * `{topic: [(docno, score), …]}` or `{topic: {docno: score}}` (ClariQ's `top10k_docs_dict`).
 */
export async function readCandidateLists(path: string, depth: number): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  const fmt = await detectFormat(path);
  if (fmt === "pickle" || fmt === "tar") {
    const d = await readPickleFile(path);
    if (!(d instanceof Map)) throw new InputError(path, {}, "a dict {topic: documents}", typeof d);
    for (const [k, v] of d) {
      const topic = Number(k);
      if (!Number.isInteger(topic)) throw new InputError(path, {}, "int topic ids as keys", String(k));
      out.set(topic, rankedDocnos(path, v).slice(0, depth));
    }
    return out;
  }
  const byTopic = new Map<number, { docno: string; score: number }[]>();
  for await (const b of readRun(path))
    for (const r of b) {
      const t = Number(r.qid);
      if (!Number.isInteger(t)) throw new InputError(path, {}, "int topic ids in the first column", r.qid);
      const l = byTopic.get(t) ?? [];
      l.push({ docno: r.docno, score: r.score });
      byTopic.set(t, l);
    }
  for (const [t, l] of byTopic) out.set(t, trecSorted(l).slice(0, depth));
  return out;
}

function trecSorted(l: { docno: string; score: number }[]): string[] {
  return l
    .sort((a, b) => b.score - a.score || Buffer.compare(Buffer.from(b.docno), Buffer.from(a.docno)))
    .map((x) => x.docno);
}

function rankedDocnos(path: string, v: PyValue): string[] {
  if (v instanceof Map) return trecSorted([...v].map(([d, s]) => ({ docno: String(d), score: Number(s) })));
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === "string")) return v as string[];
    const items = v.map((x) => {
      const arr = x instanceof PyTuple ? x.items : Array.isArray(x) ? x : undefined;
      if (!arr || typeof arr[0] !== "string")
        throw new InputError(
          path,
          {},
          "docnos or (docno, score) pairs",
          JSON.stringify(x)?.slice(0, 40) ?? "?",
        );
      return { docno: arr[0], score: Number(arr[1] ?? 0) };
    });
    return trecSorted(items);
  }
  throw new InputError(path, {}, "a list or dict of documents per topic", typeof v);
}

/**
 * Texts of the wanted documents from TrecWeb, ClueWeb22 JSONL or JSONL `{id|docid|docno, text|contents|body}`
 * (any compression), the format detected from the content.
 */
export async function readDocumentTexts(
  paths: readonly string[],
  wanted: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const path of paths) {
    const fmt = await detectFormat(path);
    if (fmt === "trecweb") {
      for await (const b of readTrecWeb(path))
        for (const d of b)
          if (wanted.has(d.docno)) out.set(d.docno, [d.title, d.body].filter(Boolean).join(" "));
    } else if (fmt === "clueweb22") {
      for await (const b of readClueWeb22(path))
        for (const d of b) if (wanted.has(d["ClueWeb22-ID"])) out.set(d["ClueWeb22-ID"], d["Clean-Text"]);
    } else {
      for await (const b of readJsonl<Record<string, unknown>>(path, (v, line) => {
        const o = v as Record<string, unknown>;
        const id = o.id ?? o.docid ?? o.docno;
        const text = o.text ?? o.contents ?? o.body;
        if (typeof id !== "string" || typeof text !== "string")
          throw new InputError(
            path,
            { line },
            "a JSON object with id and text (or contents) strings",
            JSON.stringify(v).slice(0, 60),
          );
        return { id, text };
      }))
        for (const d of b as unknown as { id: string; text: string }[])
          if (wanted.has(d.id)) out.set(d.id, d.text);
    }
  }
  return out;
}

/** Facet qrels `F0001 0 docno grade` as facet → [docno, grade] pairs. */
export async function readFacetQrels(path: string): Promise<Map<string, [string, number][]>> {
  const out = new Map<string, [string, number][]>();
  for (const e of await collect(readQrels(path))) {
    const l = out.get(e.qid) ?? [];
    l.push([e.docno, e.rel]);
    out.set(e.qid, l);
  }
  return out;
}
