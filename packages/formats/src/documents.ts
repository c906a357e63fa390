// One JSON value as a document: a ClueWeb22 txt record or a generic `{id|docid|docno, text|contents|body}` object.
import { InputError } from "@convkit/io";
import { Fields } from "@convkit/json";
import type { WebDocument } from "./records.js";

/**
 * A document from a parsed JSON line: ClueWeb22 (`ClueWeb22-ID`, `Clean-Text`, `URL`; the title
 * is the first line of Clean-Text) or `{id|docid|docno, text|contents|body[, url][, title]}`.
 * Anything else is an {@link InputError} naming the file and line.
 */
export function jsonDocument(file: string, v: unknown, line: number): WebDocument {
  // Every shape that is not a document, a non-object included, is this one error.
  const notADocument = () =>
    new InputError(
      file,
      { line },
      "a JSON object with id and text (or contents) strings, or a ClueWeb22 record",
      JSON.stringify(v)?.slice(0, 60) ?? String(v),
    );
  const o = Fields.of(v, notADocument);
  const cwId = o.get("ClueWeb22-ID");
  const cwText = o.get("Clean-Text");
  if (typeof cwId === "string" && typeof cwText === "string") {
    const nl = cwText.indexOf("\n");
    const url = o.get("URL");
    return {
      id: cwId,
      text: cwText,
      url: typeof url === "string" ? url : undefined,
      title: nl < 0 ? cwText : cwText.slice(0, nl),
    };
  }
  const id = o.get("id") ?? o.get("docid") ?? o.get("docno");
  const text = o.get("text") ?? o.get("contents") ?? o.get("body");
  if (typeof id !== "string" || typeof text !== "string") throw notADocument();
  const url = o.get("url");
  const title = o.get("title");
  return {
    id,
    text,
    url: typeof url === "string" ? url : undefined,
    title: typeof title === "string" ? title : undefined,
  };
}
