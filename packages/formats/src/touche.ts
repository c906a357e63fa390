// Touché 2021 Task 1: args.me corpus files (streamed), topics.xml, relevance and quality qrels.
import { InputError, openInput, readAll } from "@convkit/io";
import { streamJsonItems } from "./json-stream.js";
import type { ArgsMeArgument, QrelsEntry, ToucheJudgment, ToucheTopic } from "./records.js";
import { displayName } from "./table.js";

/**
 * Arguments of an args.me corpus file (`{"arguments": [...]}`, several GB), streamed with
 * stream-json (`pick` + `streamArray`), handed on in batches; memory holds one batch.
 */
export async function* readArgsMe(path: string, batchSize = 1000): AsyncIterable<ArgsMeArgument[]> {
  const src = await openInput(path);
  for await (const batch of streamJsonItems<ArgsMeArgument>(src, {
    kind: "array",
    pick: "arguments",
    batchSize,
  })) {
    yield batch.map(({ key, value }) => {
      if (
        typeof value?.id !== "string" ||
        typeof value.conclusion !== "string" ||
        !Array.isArray(value.premises)
      ) {
        throw new InputError(
          src.name,
          {},
          `an argument with id, conclusion and premises at arguments[${key}]`,
          JSON.stringify(value).slice(0, 40),
        );
      }
      return value;
    });
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e[0] === "#"
      ? String.fromCodePoint(e[1] === "x" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : ENTITIES[e]!,
  );
}

/** Topics of a Touché `topics.xml` (`number`, `title`, optional `description` and `narrative`). */
export async function readToucheTopics(path: string): Promise<ToucheTopic[]> {
  const file = displayName(path);
  const text = (await readAll(await openInput(path))).toString("utf8");
  if (!/<topics[\s>]/.test(text))
    throw new InputError(file, { line: 1 }, "a <topics> document", JSON.stringify(text.slice(0, 20)));
  const out: ToucheTopic[] = [];
  for (const m of text.matchAll(/<topic>([\s\S]*?)<\/topic>/g)) {
    const body = m[1]!;
    const line = text.slice(0, m.index).split("\n").length;
    const field = (name: string) => {
      const f = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body);
      return f ? decodeXml(f[1]!.trim()) : undefined;
    };
    const number = field("number");
    const title = field("title");
    if (number === undefined || !/^\d+$/.test(number))
      throw new InputError(file, { line }, "a numeric <number> in the topic", number ?? "none");
    if (title === undefined) throw new InputError(file, { line }, "a <title> in the topic", "none");
    const t: ToucheTopic = { number: Number(number), title };
    const description = field("description");
    const narrative = field("narrative");
    if (description !== undefined) t.description = description;
    if (narrative !== undefined) t.narrative = narrative;
    out.push(t);
  }
  return out;
}

/** Joins relevance and quality qrels on (qid, docno), never on line order. */
export function joinToucheQrels(
  relevance: Iterable<QrelsEntry>,
  quality: Iterable<QrelsEntry>,
): ToucheJudgment[] {
  const by = new Map<string, ToucheJudgment>();
  const get = (e: QrelsEntry) => {
    const k = `${e.qid}\u0000${e.docno}`;
    let j = by.get(k);
    if (!j) {
      j = { qid: e.qid, docno: e.docno };
      by.set(k, j);
    }
    return j;
  };
  for (const e of relevance) get(e).relevance = e.rel;
  for (const e of quality) get(e).quality = e.rel;
  return [...by.values()];
}

/** Touché grades: `-2` marks spam, which counts as non-relevant (grade 0). */
export function toucheGain(grade: number): number {
  return Math.max(0, grade);
}
