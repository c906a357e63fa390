import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { readClueWeb22, readClueWeb22Offsets, readClueWeb22Record, writeClueWeb22 } from "./clueweb22.js";
import type { ClueWeb22Record } from "./records.js";
import { collect } from "./table.js";
import { formatIkatTrecWeb, readTrecWeb, writeIkatTrecWeb } from "./trecweb.js";

const rec = (i: number): ClueWeb22Record => ({
  "ClueWeb22-ID": `clueweb22-en0000-00-${String(i).padStart(5, "0")}`,
  URL: `https://example.org/${i}\n`,
  "URL-hash": "ABCDEF0123456789",
  Language: "en",
  "Clean-Text": `Title ${i}\nBody with “quotes” and 😀 ${"x".repeat(i * 37)}`,
});

describe("ClueWeb22 txt files", () => {
  it("writes one gzip member per record with a %010d offset file, and reads record n directly", async () => {
    const dir = tempDir();
    const f = join(dir, "en0000-00.json.gz");
    const records = Array.from({ length: 50 }, (_, i) => rec(i));
    await writeClueWeb22(f, records);
    const offsets = await readClueWeb22Offsets(join(dir, "en0000-00.offset"));
    expect(offsets.length).toBe(51);
    expect(readFileSync(join(dir, "en0000-00.offset"), "latin1").slice(0, 22)).toBe(
      `0000000000\n${String(offsets[1]).padStart(10, "0")}\n`,
    );
    expect(await readClueWeb22Record(f, offsets, 37)).toEqual(records[37]);
    expect(await collect(readClueWeb22(f))).toEqual(records);
  });

  it("rejects a record without Clean-Text and an offset file with a bad line", async () => {
    const dir = tempDir();
    const f = join(dir, "bad.json");
    writeFileSync(
      f,
      `${JSON.stringify(rec(1))}\n{"ClueWeb22-ID": "x", "URL": "u", "URL-hash": "h", "Language": "en"}\n`,
    );
    await expect(collect(readClueWeb22(f))).rejects.toThrow(
      `${f}:2: expected a string "Clean-Text" in the ClueWeb22 txt record, found "null"`,
    );
    const o = join(dir, "bad.offset");
    writeFileSync(o, "0000000000\n00000x0012\n");
    await expect(readClueWeb22Offsets(o)).rejects.toThrow(
      `${o}:byte 11: expected a 10-digit offset and a newline`,
    );
  });

  it("a line that is not JSON, or not an object: one InputError at its line (the object check was a missing field)", async () => {
    const f = join(tempDir(), "en0000-00.json");
    writeFileSync(f, `${JSON.stringify(rec(1))}\n[1, 2]\n`);
    await expect(collect(readClueWeb22(f))).rejects.toThrow(`${f}:2: expected an object, found an array`);
    writeFileSync(f, `${JSON.stringify(rec(1))}\n{"ClueWeb22-ID": \n`);
    await expect(collect(readClueWeb22(f))).rejects.toThrow(
      `${f}:2:18: expected valid JSON, found end of input`,
    );
  });
});

describe("TrecWeb", () => {
  const doc = {
    docno: "clueweb22-en0000-00-00001",
    title: "Best pizza",
    url: "https://x.org/p",
    passages: ["first passage.", "second <b>raw</b> & unescaped"],
  };

  it("writes iKAT's passage layout byte for byte", () => {
    expect(`${formatIkatTrecWeb(doc)}\n`).toBe(
      "<DOC>\n<DOCNO>clueweb22-en0000-00-00001</DOCNO>\n<DOCHDR>\n</DOCHDR>\n<HTML>\n<TITLE>Best pizza</TITLE>\n<URL>https://x.org/p</URL>\n<BODY>\n<PASSAGE id=0>\nfirst passage.\n</PASSAGE>\n<PASSAGE id=1>\nsecond <b>raw</b> & unescaped\n</PASSAGE>\n</BODY>\n</HTML>\n</DOC>\n",
    );
  });

  it("reads back what it writes, and fails on an unclosed <DOC>", async () => {
    const dir = tempDir();
    const f = join(dir, "p.trecweb");
    async function* batches() {
      yield [doc, { ...doc, docno: "d2", passages: ["only"] }];
    }
    await writeIkatTrecWeb(f, batches());
    const docs = await collect(readTrecWeb(f));
    expect(docs.map((d) => [d.docno, d.title, d.url, d.passages?.map((p) => p.text)])).toEqual([
      [doc.docno, doc.title, doc.url, doc.passages],
      ["d2", doc.title, doc.url, ["only"]],
    ]);
    writeFileSync(f, "<DOC>\n<DOCNO>x</DOCNO>\n<HTML>\n");
    await expect(collect(readTrecWeb(f))).rejects.toThrow(
      `${f}:1: expected </DOC> closing this document, found end of file`,
    );
  });
});
