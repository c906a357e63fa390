import { describe, expect, it } from "vitest";
import { InputError } from "./errors.js";
import { readLineBatches } from "./lines.js";
import { formatDelimited, parseDelimited, splitQuoted } from "./tsv.js";

async function* chunks(...parts: (string | Uint8Array)[]) {
  for (const p of parts) yield typeof p === "string" ? Buffer.from(p) : p;
}

async function parse(text: string | Uint8Array, split = 7) {
  const b = typeof text === "string" ? Buffer.from(text) : Buffer.from(text);
  const pieces = [];
  for (let i = 0; i < b.length; i += split) pieces.push(b.subarray(i, i + split));
  const out = [];
  for await (const rows of parseDelimited(
    "t.tsv",
    readLineBatches({ name: "t.tsv", chunks: chunks(...pieces) }),
  ))
    out.push(...rows);
  return out;
}

describe("pandas-compatible TSV", () => {
  it("unquotes fields that start with a quote, doubling inside, text after the closing quote kept", () => {
    expect(splitQuoted('133\t"Who said \\""all men\\""?"\tx', "\t")).toEqual([
      "133",
      'Who said \\"all men\\"?',
      "x",
    ]);
    expect(splitQuoted('"ab"c\td', "\t")).toEqual(["abc", "d"]);
    expect(splitQuoted('a"b\t"c"', "\t")).toEqual(['a"b', "c"]);
    expect(splitQuoted('"open\tx', "\t")).toBeUndefined();
  });

  it("reads quoted fields that span lines, CRLF endings, and reports line numbers across chunks", async () => {
    const rows = await parse('h1\th2\r\n"multi\nline"\tb\n\nc\td\n');
    expect(rows.map((r) => [r.line, r.fields])).toEqual([
      [1, ["h1", "h2"]],
      [2, ["multi\nline", "b"]],
      [5, ["c", "d"]],
    ]);
  });

  it("fails on an unterminated quote with the line it started on", async () => {
    await expect(parse('a\tb\n"never closed\tx\ny\n')).rejects.toThrow(
      't.tsv:2: expected a closing quote (") , found end of file'.replace(" ,", ","),
    );
  });

  it("locates invalid UTF-8 by line and column", async () => {
    const bad = Buffer.concat([Buffer.from("ok\nab"), Buffer.from([0xff]), Buffer.from("c\n")]);
    const err = await parse(bad, 3).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe("t.tsv:2:3: expected valid UTF-8, found byte 0xff");
  });

  it("writes as QUOTE_MINIMAL: quotes only fields with tab, quote or newline; reads back the same", async () => {
    const rows = [["1", 'say "hi"', "a\tb", "line\nbreak", "plain", "cr\r"]];
    const text = formatDelimited(rows);
    expect(text).toBe('1\t"say ""hi"""\t"a\tb"\t"line\nbreak"\tplain\t"cr\r"\n');
    const back = await parse(text);
    expect(back[0]!.fields).toEqual(rows[0]);
  });
});
