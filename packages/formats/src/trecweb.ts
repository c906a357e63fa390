// TrecWeb documents (`<DOC>…</DOC>`), including iKAT's passage files with `<PASSAGE id=k>` blocks.
import { InputError, openInput, readLineBatches, type WriteOptions } from "@convkit/io";
import { writeLines } from "./lines.js";
import type { TrecWebDoc } from "./records.js";
import { displayName } from "./table.js";

const tag = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`);
const DOCNO = tag("DOCNO");
const TITLE = tag("TITLE");
const URL_TAG = tag("URL");
const PASSAGE = /<PASSAGE id=(\d+)>\n([\s\S]*?)\n<\/PASSAGE>/g;

/** Parses the text between `<DOC>` and `</DOC>`. */
export function parseTrecWebDoc(file: string, text: string, line: number): TrecWebDoc {
  const docno = DOCNO.exec(text)?.[1]?.trim();
  if (!docno) throw new InputError(file, { line }, "a <DOCNO> in the document", "none");
  const hdrEnd = text.indexOf("</DOCHDR>");
  const body =
    hdrEnd >= 0
      ? text.slice(hdrEnd + "</DOCHDR>".length).replace(/^\n/, "")
      : text.slice(text.indexOf("</DOCNO>") + 8);
  const doc: TrecWebDoc = { docno, body };
  const title = TITLE.exec(body)?.[1];
  if (title !== undefined) doc.title = title;
  const url = URL_TAG.exec(body)?.[1];
  if (url !== undefined) doc.url = url;
  const passages = [...body.matchAll(PASSAGE)].map((m) => ({ id: Number(m[1]), text: m[2]! }));
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
    for (let i = 0; i < b.lines.length; i++) {
      const l = b.lines[i]!;
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
