// Hostile XML (issue 39, item 4): entity names that are Object.prototype's, character references
// XML 1.0 forbids, forbidden raw characters outside text, and nesting without end.
import { messageOf } from "@convkit/io";
import { describe, expect, it } from "vitest";
import { MAX_XML_DEPTH, parseXml } from "./xml.js";

const doc = (title: string) =>
  `<?xml version="1.0"?>\n<topics>\n<topic>\n<title>${title}</title>\n</topic>\n</topics>\n`;
const titleOf = (text: string) => parseXml("t.xml", text).children[0]!.children[0]!.text;
const errorOf = (text: string) => {
  try {
    parseXml("t.xml", text);
  } catch (e) {
    return messageOf(e);
  }
  return "no error";
};

describe("parseXml", () => {
  it("knows the five predefined entities by their own names only", () => {
    expect(titleOf(doc("&amp;&lt;&gt;&quot;&apos;"))).toBe(`&<>"'`);
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
      expect(errorOf(doc(`a &${name};`))).toBe(
        `t.xml:4:10: expected an entity (&amp; &lt; &gt; &quot; &apos; &#N;), found "&${name};"`,
      );
    }
  });

  it("refuses character references to characters XML 1.0 forbids, like raw ones", () => {
    const refused: [string, string][] = [
      ["&#0;", "U+0000"],
      ["&#x0;", "U+0000"],
      ["&#x1F;", "U+001F"],
      ["&#xD800;", "U+D800"],
      ["&#xDFFF;", "U+DFFF"],
      ["&#xFFFE;", "U+FFFE"],
      ["&#65535;", "U+FFFF"],
      ["&#x110000;", "beyond U+10FFFF"],
      ["&#99999999999999999999;", "beyond U+10FFFF"],
    ];
    for (const [ref, found] of refused)
      expect(errorOf(doc(`ok ${ref}`))).toBe(
        `t.xml:4:11: expected a character reference to a character XML allows, found ${ref} (${found})`,
      );
    expect(titleOf(doc("&#x9;&#10;&#xD;&#x20;&#xD7FF;&#xE000;&#xFFFD;&#x10000;&#x10FFFF;&#65;"))).toBe(
      "\t\n\r \uD7FF\uE000\uFFFD\u{10000}\u{10FFFF}A",
    );
  });

  it("refuses a forbidden raw character anywhere: text, attribute, comment, CDATA", () => {
    expect(errorOf(doc("a\u0000"))).toBe("t.xml:4:9: expected a character XML allows, found U+0000");
    expect(errorOf(doc("<![CDATA[\u0001]]>"))).toBe(
      "t.xml:4:17: expected a character XML allows, found U+0001",
    );
    expect(errorOf(doc("<!-- \uFFFF -->"))).toBe("t.xml:4:13: expected a character XML allows, found U+FFFF");
    expect(errorOf(doc('<b x="\u0008"/>'))).toBe("t.xml:4:14: expected a character XML allows, found U+0008");
  });

  it(`reads elements nested ${MAX_XML_DEPTH} deep and refuses one more, even a million deeper, at its place`, () => {
    const nest = (n: number) => `${"<a>".repeat(n)}${"</a>".repeat(n)}`;
    expect(() => parseXml("t.xml", nest(MAX_XML_DEPTH))).not.toThrow();
    const want = `t.xml:1:${3 * MAX_XML_DEPTH + 1}: expected elements nested at most ${MAX_XML_DEPTH} deep, found <a> nested deeper`;
    expect(errorOf(nest(MAX_XML_DEPTH + 1))).toBe(want);
    expect(errorOf(nest(1_000_000))).toBe(want);
  });
});
