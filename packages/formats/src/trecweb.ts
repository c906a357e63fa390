// TrecWeb documents (`<DOC>…</DOC>`), including iKAT's passage files with `<PASSAGE id=k>` blocks.
import { InputError, openInput, readLineBatches, type WriteOptions } from "@convkit/io";
import { writeLines } from "./lines.js";
import type { TrecWebDoc } from "./records.js";
import { displayName } from "./table.js";

/**
 * The text between the first `<name>` and the first `</name>` after it: what the lazy regular
 * expression `<name>([\s\S]*?)</name>` finds, by indexOf. The regex, finding no close, retried
 * from every later `<name>` and scanned to the end each time: quadratic in `<name>` × n.
 */
function between(text: string, name: string): string | undefined {
  const open = `<${name}>`;
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(`</${name}>`, start + open.length);
  return end < 0 ? undefined : text.slice(start + open.length, end);
}

const PASSAGE_OPEN = "<PASSAGE id=";
const PASSAGE_CLOSE = "\n</PASSAGE>";
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * The `<PASSAGE id=N>\n…\n</PASSAGE>` blocks of a body, as the global regex
 * `/<PASSAGE id=(\d+)>\n([\s\S]*?)\n<\/PASSAGE>/g` matches them, in one pass: a header with no
 * close after it ends the search (no later header has one either).
 */
function passagesOf(body: string): { id: number; text: string }[] {
  const out: { id: number; text: string }[] = [];
  let from = 0;
  for (let p = body.indexOf(PASSAGE_OPEN); p >= 0; p = body.indexOf(PASSAGE_OPEN, from)) {
    const digits = p + PASSAGE_OPEN.length;
    let d = digits;
    while (isDigit(body.charCodeAt(d))) d++;
    if (d === digits || body.charCodeAt(d) !== 0x3e || body.charCodeAt(d + 1) !== 0x0a) {
      from = p + 1;
      continue;
    }
    const end = body.indexOf(PASSAGE_CLOSE, d + 2);
    if (end < 0) break;
    out.push({ id: Number(body.slice(digits, d)), text: body.slice(d + 2, end) });
    from = end + PASSAGE_CLOSE.length;
  }
  return out;
}

/** Parses the text between `<DOC>` and `</DOC>`. */
export function parseTrecWebDoc(file: string, text: string, line: number): TrecWebDoc {
  const docno = between(text, "DOCNO")?.trim();
  if (!docno) throw new InputError(file, { line }, "a <DOCNO> in the document", "none");
  const hdrEnd = text.indexOf("</DOCHDR>");
  // One leading newline dropped by slicing, not by a regex replace (which copies the body).
  const afterHdr = hdrEnd + "</DOCHDR>".length;
  const body =
    hdrEnd >= 0
      ? text.slice(text.charCodeAt(afterHdr) === 0x0a ? afterHdr + 1 : afterHdr)
      : text.slice(text.indexOf("</DOCNO>") + 8);
  const doc: TrecWebDoc = { docno, body };
  const title = between(body, "TITLE");
  if (title !== undefined) doc.title = title;
  const url = between(body, "URL");
  if (url !== undefined) doc.url = url;
  const passages = passagesOf(body);
  if (passages.length > 0) doc.passages = passages;
  return doc;
}

/** Documents of a TrecWeb file, in batches; a `<DOC>` left open at the end is an error. */
export async function* readTrecWeb(path: string, batchSize = 256): AsyncIterable<TrecWebDoc[]> {
  const file = displayName(path);
  const src = await openInput(path);
  let cur: string[] | undefined;
  let start = 0;
  let out: TrecWebDoc[] = [];
  for await (const b of readLineBatches(src)) {
    for (const [i, l] of b.lines.entries()) {
      if (cur === undefined) {
        if (l.trim() === "<DOC>") {
          cur = [];
          start = b.firstLine + i;
        } else if (l.trim() !== "")
          throw new InputError(file, { line: b.firstLine + i }, "<DOC>", JSON.stringify(l.slice(0, 30)));
        continue;
      }
      if (l.trim() === "</DOC>") {
        out.push(parseTrecWebDoc(file, cur.join("\n"), start));
        cur = undefined;
        if (out.length >= batchSize) {
          yield out;
          out = [];
        }
        continue;
      }
      cur.push(l);
    }
  }
  if (cur !== undefined)
    throw new InputError(file, { line: start }, "</DOC> closing this document", "end of file");
  if (out.length > 0) yield out;
}

/** An iKAT passage document in TrecWeb, byte for byte as the organizers' tools write it. */
export function formatIkatTrecWeb(doc: {
  docno: string;
  title: string;
  url: string;
  passages: readonly string[];
}): string {
  let s = `<DOC>\n<DOCNO>${doc.docno}</DOCNO>\n<DOCHDR>\n</DOCHDR>\n<HTML>\n<TITLE>${doc.title}</TITLE>\n<URL>${doc.url}</URL>\n<BODY>\n`;
  doc.passages.forEach((p, k) => {
    s += `<PASSAGE id=${k}>\n${p}\n</PASSAGE>\n`;
  });
  return `${s}</BODY>\n</HTML>\n</DOC>`;
}

export function writeIkatTrecWeb(
  target: string,
  batches: AsyncIterable<
    readonly { docno: string; title: string; url: string; passages: readonly string[] }[]
  >,
  options?: WriteOptions,
): Promise<number> {
  return writeLines(target, batches, formatIkatTrecWeb, options);
}
