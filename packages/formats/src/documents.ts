// One JSON value as a document: a ClueWeb22 txt record or a generic `{id|docid|docno, text|contents|body}` object.
import { InputError } from "@convkit/io";
import type { WebDocument } from "./records.js";

/**
 * A document from a parsed JSON line: ClueWeb22 (`ClueWeb22-ID`, `Clean-Text`, `URL`; the title
 * is the first line of Clean-Text) or `{id|docid|docno, text|contents|body[, url][, title]}`.
 * Anything else is an {@link InputError} naming the file and line.
 */
export function jsonDocument(file: string, v: unknown, line: number): WebDocument {
  const o = (v ?? {}) as Record<string, unknown>;
  if (typeof o["ClueWeb22-ID"] === "string" && typeof o["Clean-Text"] === "string") {
    const text = o["Clean-Text"];
    const nl = text.indexOf("\n");
    return {
      id: o["ClueWeb22-ID"],
      text,
      url: typeof o.URL === "string" ? o.URL : undefined,
      title: nl < 0 ? text : text.slice(0, nl),
    };
  }
  const id = o.id ?? o.docid ?? o.docno;
  const text = o.text ?? o.contents ?? o.body;
  if (typeof id !== "string" || typeof text !== "string")
    throw new InputError(
      file,
      { line },
      "a JSON object with id and text (or contents) strings, or a ClueWeb22 record",
      JSON.stringify(v)?.slice(0, 60) ?? String(v),
    );
  return {
    id,
    text,
    url: typeof o.url === "string" ? o.url : undefined,
    title: typeof o.title === "string" ? o.title : undefined,
  };
}
