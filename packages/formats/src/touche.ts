// Touché 2021 Task 1: args.me corpus files (streamed), topics.xml, relevance and quality qrels.
import { InputError, openInput, readText } from "@convkit/io";
import { streamJsonItems } from "./json-stream.js";
import type { ArgsMeArgument, QrelsEntry, ToucheJudgment, ToucheTopic } from "./records.js";
import { displayName } from "./table.js";
import { parseXml } from "./xml.js";

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

/**
 * Topics of a Touché `topics.xml` (`number`, `title`, optional `description` and `narrative`).
 * The document must be well formed (see {@link parseXml}): a file cut short is an error, not
 * fewer topics.
 */
export async function readToucheTopics(path: string): Promise<ToucheTopic[]> {
  const file = displayName(path);
  const root = parseXml(file, await readText(path));
  if (root.name !== "topics")
    throw new InputError(file, { line: root.line, col: root.col }, "a <topics> document", `<${root.name}>`);
  const out: ToucheTopic[] = [];
  for (const topic of root.children) {
    if (topic.name !== "topic") continue;
    const at = { line: topic.line, col: topic.col };
    const field = (name: string) => topic.children.find((c) => c.name === name)?.text.trim();
    const number = field("number");
    const title = field("title");
    if (number === undefined || !/^\d+$/.test(number))
      throw new InputError(file, at, "a numeric <number> in the topic", number ?? "none");
    if (title === undefined) throw new InputError(file, at, "a <title> in the topic", "none");
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
