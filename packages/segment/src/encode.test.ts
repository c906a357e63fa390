import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { requires } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { encodeSegmentTask, type SourceDocument } from "./encode.js";

const NASTY = 'He said "hi" \\ back\tslash\u0001 caf\u00e9 \u4e2d\u6587 \u{1F600} end.';

const run = (
  docs: SourceDocument[],
  formats: ("jsonl" | "hashes" | "trecweb")[],
  preset: "ikat" | "msmarco" = "ikat",
) => encodeSegmentTask({ docs, preset, splitter: "heuristic", formats });

describe("passage outputs", () => {
  it("JSONL as json.dumps writes it: committed vectors (escapes, \\u escapes, surrogate pairs)", () => {
    const r = run([{ id: "clueweb22-en0000-00-00000", text: NASTY, url: "https://x.org/\n" }], ["jsonl"]);
    expect(Buffer.from(r.jsonl).toString("utf8")).toBe(
      '{"id": "clueweb22-en0000-00-00000:0", "contents": "He said \\"hi\\" \\\\ back\\tslash\\u0001 caf\\u00e9 \\u4e2d\\u6587 \\ud83d\\ude00 end.", "url": "https://x.org/"}\n',
    );
  });
  requires("python3").it("JSONL bytes equal python3's json.dumps of the same passages (python3)", () => {
    const docs = [
      { id: "d1", text: NASTY, url: " u " },
      {
        id: "d2",
        text: Array.from({ length: 12 }, (_, i) => `S\u00f8ntence ${i} "q" \u{1F680} end.`).join(" "),
        url: "v",
      },
    ];
    const r = run(docs, ["jsonl"]);
    const lines = Buffer.from(r.jsonl).toString("utf8").trim().split("\n");
    const py = execFileSync(
      "python3",
      ["-c", "import json,sys\nfor l in sys.stdin.read().splitlines():\n  print(json.dumps(json.loads(l)))"],
      { input: lines.join("\n") },
    ).toString();
    expect(Buffer.from(r.jsonl).toString("utf8")).toBe(py);
    expect(lines.length).toBe(3);
  });
  it("hash TSV: docid, k, md5 of the UTF-8 passage", () => {
    const r = run([{ id: "d", text: NASTY }], ["hashes", "jsonl"]);
    const passage = JSON.parse(Buffer.from(r.jsonl).toString("utf8")).contents;
    expect(Buffer.from(r.hashes).toString("utf8")).toBe(
      `d\t0\t${createHash("md5").update(Buffer.from(passage, "utf8")).digest("hex")}\n`,
    );
  });
  it("TrecWeb as the iKAT tools write it (no escaping, no newline before </BODY>)", () => {
    const text = Array.from({ length: 11 }, (_, i) => `S${i} <b>&.`).join(" ");
    const r = run([{ id: "d", text, url: "http://u\n", title: "T <i>" }], ["trecweb"]);
    const s1 = Array.from({ length: 10 }, (_, i) => `S${i} <b>&.`).join(" ");
    const s2 = Array.from({ length: 6 }, (_, i) => `S${i + 5} <b>&.`).join(" ");
    expect(Buffer.from(r.trecweb).toString("utf8")).toBe(
      `<DOC>\n<DOCNO>d</DOCNO>\n<DOCHDR>\n</DOCHDR>\n<HTML>\n<TITLE>T <i></TITLE>\n<URL>http://u</URL>\n<BODY>\n<PASSAGE id=0>\n${s1}\n</PASSAGE>\n<PASSAGE id=1>\n${s2}\n</PASSAGE>\n</BODY>\n</HTML>\n</DOC>\n`,
    );
  });
  it("MS MARCO preset: ids docid#k, no url key", () => {
    const r = run([{ id: "D1", text: "  One. Two.  ", url: "u" }], ["jsonl"], "msmarco");
    expect(Buffer.from(r.jsonl).toString("utf8")).toBe('{"id": "D1#0", "contents": "One. Two."}\n');
  });
});
