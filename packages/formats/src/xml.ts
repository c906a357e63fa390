// A small, strict XML reader for the few XML files of the datasets (Touché's topics.xml): the
// document must be well formed (one root, every element closed in order, entities known), or
// reading fails at the line and column where it stops being so. Regular expressions over the
// text accepted a file cut in the middle and read on.
import { InputError } from "@convkit/io";

/** An element: its name, where it starts, its child elements and its text (entities decoded). */
export interface XmlElement {
  readonly name: string;
  readonly line: number;
  readonly col: number;
  readonly children: XmlElement[];
  text: string;
}

/** The predefined entities, in a Map: an object's lookup also finds `constructor`, `__proto__`… */
const ENTITIES = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
]);
/** Characters XML 1.0 forbids anywhere (C0 controls but tab, LF and CR; U+FFFE, U+FFFF). */
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
/**
 * The deepest element nesting read: libxml2's default limit (256). The datasets' files nest three
 * deep; a deeper document is refused at the element that goes over.
 */
export const MAX_XML_DEPTH = 256;

/** XML 1.0's Char production: what a character reference may name, as a raw character may be. */
function isXmlChar(c: number): boolean {
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

const codePoint = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
const NAME = "[A-Za-z_:][\\w.:-]*";
const OPEN_TAG = new RegExp(`^<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`);
const CLOSE_TAG = new RegExp(`^</(${NAME})\\s*>`);

/** Parses a whole XML document; returns its root element. */
export function parseXml(file: string, text: string): XmlElement {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const where = (pos: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: pos - lineStarts[lo]! + 1 };
  };
  // Typed as a whole (not just its return): so that TypeScript narrows after a call (`if (!m) fail(…)`).
  const fail: (pos: number, expected: string, found?: string) => never = (pos, expected, found) => {
    throw new InputError(
      file,
      where(pos),
      expected,
      found ?? (pos >= text.length ? "end of file" : JSON.stringify(text.slice(pos, pos + 12))),
    );
  };
  const decode = (s: string, at: number) =>
    s.replace(/&([^;&<\s]*);?/g, (whole: string, e: string, off: number) => {
      const ref = /^#x[0-9a-fA-F]+$/.test(e)
        ? Number.parseInt(e.slice(2), 16)
        : /^#\d+$/.test(e)
          ? Number(e.slice(1))
          : -1;
      if (whole.endsWith(";") && ref >= 0) {
        if (isXmlChar(ref)) return String.fromCodePoint(ref);
        return fail(
          at + off,
          "a character reference to a character XML allows",
          `${whole} (${ref <= 0x10ffff ? codePoint(ref) : "beyond U+10FFFF"})`,
        );
      }
      const named = whole.endsWith(";") ? ENTITIES.get(e) : undefined;
      if (named !== undefined) return named;
      return fail(at + off, "an entity (&amp; &lt; &gt; &quot; &apos; &#N;)", JSON.stringify(whole));
    });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  // Anywhere: in text, attributes, comments and CDATA alike.
  const bad = text.search(NOT_XML_CHAR);
  if (bad >= 0) fail(bad, "a character XML allows", codePoint(text.charCodeAt(bad)));
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    const end = lt < 0 ? text.length : lt;
    if (end > i) {
      const top = stack[stack.length - 1];
      if (top) top.text += decode(text.slice(i, end), i);
      else if (text.slice(i, end).trim() !== "")
        fail(i + text.slice(i, end).search(/\S/), "markup outside the root element");
    }
    if (lt < 0) break;
    const closeOf = (marker: string, what: string) => {
      const c = text.indexOf(marker, lt);
      if (c < 0) fail(text.length, what);
      return c + marker.length;
    };
    if (text.startsWith("<?", lt)) i = closeOf("?>", "?> closing the processing instruction");
    else if (text.startsWith("<!--", lt)) i = closeOf("-->", "--> closing the comment");
    else if (text.startsWith("<![CDATA[", lt)) {
      const c = closeOf("]]>", "]]> closing the CDATA section");
      const top = stack[stack.length - 1];
      if (!top) fail(lt, "CDATA inside an element");
      top.text += text.slice(lt + 9, c - 3);
      i = c;
    } else if (text.startsWith("<!DOCTYPE", lt) && !root) i = closeOf(">", "> closing the DOCTYPE");
    else if (text.startsWith("</", lt)) {
      const m = CLOSE_TAG.exec(text.slice(lt, lt + 256));
      const top = stack[stack.length - 1];
      if (!m) fail(lt, top ? `</${top.name}>` : "a closing tag");
      if (!top || m[1] !== top.name) fail(lt, top ? `</${top.name}>` : "no closing tag after the root");
      stack.pop();
      i = lt + m[0].length;
    } else {
      const m = OPEN_TAG.exec(text.slice(lt, lt + 4096));
      if (!m) fail(lt, "a tag (<name …>)");
      const [tag, name, , selfClosing] = m;
      if (name === undefined) fail(lt, "a tag (<name …>)");
      if (!stack.length && root) fail(lt, "one root element", `a second one, <${name}>`);
      const el: XmlElement = { name, ...where(lt), children: [], text: "" };
      const top = stack[stack.length - 1];
      if (top) top.children.push(el);
      else root = el;
      if (selfClosing !== "/") {
        if (stack.length >= MAX_XML_DEPTH)
          fail(lt, `elements nested at most ${MAX_XML_DEPTH} deep`, `<${el.name}> nested deeper`);
        stack.push(el);
      }
      i = lt + tag.length;
    }
  }
  const open = stack.at(-1);
  if (open) fail(text.length, `</${open.name}>`);
  if (!root) fail(text.length, "a root element");
  return root;
}
