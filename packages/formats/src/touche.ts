// Touché 2021 Task 1: args.me corpus files (streamed), topics.xml, relevance and quality qrels.
import { InputError, openInput, readText } from "@convkit/io";
import { Fields, inputMismatch } from "@convkit/json";
import { streamJsonItems } from "./json-stream.js";
import type { ArgsMeArgument, QrelsEntry, ToucheJudgment, ToucheTopic } from "./records.js";
import { displayName } from "./table.js";
import { parseXml } from "./xml.js";

/**
 * Arguments of an args.me corpus file (`{"arguments": [...]}`, several GB), streamed with
 * stream-json (`pick` + `streamArray`), handed on in batches; memory holds one batch. Each
 * argument is checked field by field (its other fields kept as they are): a field of the wrong
 * type is one InputError naming the file and the field's path (`arguments[3].premises[0].text`).
 */
export async function* readArgsMe(path: string, batchSize = 1000): AsyncIterable<ArgsMeArgument[]> {
  const src = await openInput(path);
  const mismatch = inputMismatch(src.name);
  for await (const batch of streamJsonItems<unknown>(src, {
    kind: "array",
    pick: "arguments",
    batchSize,
  })) {
    yield batch.map(({ key, value }) => argsMeArgument(Fields.of(value, mismatch, `arguments[${key}]`)));
  }
}

/** A checked argument: its fields in the file's order, id, conclusion and premises checked. */
function argsMeArgument(f: Fields): ArgsMeArgument {
  const id = f.string("id");
  const conclusion = f.string("conclusion");
  const premises = f.objects("premises").map((p) => ({
    ...asRecord(p),
    text: p.string("text"),
    stance: p.string("stance"),
  }));
  return { ...asRecord(f), id, conclusion, premises };
}

/** An object's fields as a record, in its order (spreading checked fields over it keeps their places). */
function asRecord(f: Fields): Record<string, unknown> {
  return Object.fromEntries(f.keys().map((k) => [k, f.get(k)]));
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
