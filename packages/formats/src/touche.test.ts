import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "@convkit/io";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { collect } from "./table.js";
import { joinToucheQrels, readArgsMe, readToucheTopics, toucheGain } from "./touche.js";

/** An args.me-shaped argument with the real schema's fields. */
export function argsMeArgument(i: number) {
  return {
    premises: [
      { text: `Premise ${i} says "why" \\ with ünicode`, stance: i % 2 ? "CON" : "PRO", annotations: [] },
    ],
    context: {
      sourceId: `s${i}`,
      previousArgumentInSourceId: "",
      acquisitionTime: "2019-04-18T17:59:57Z",
      discussionTitle: `Debate ${i % 7}`,
      sourceTitle: "t",
      sourceUrl: "https://x",
      nextArgumentInSourceId: "",
    },
    id: `S${i.toString(16)}-A${i}`,
    conclusion: `Conclusion ${i}`,
  };
}

describe("Touché / args.me", () => {
  it("streams the arguments array of a corpus file in batches", async () => {
    const dir = tempDir();
    const f = join(dir, "debateorg.json");
    const args = Array.from({ length: 2500 }, (_, i) => argsMeArgument(i));
    writeFileSync(f, JSON.stringify({ arguments: args }));
    const sizes: number[] = [];
    const got = [];
    for await (const b of readArgsMe(f, 1000)) {
      sizes.push(b.length);
      got.push(...b);
    }
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(got).toEqual(args);
  });

  it("fails on a truncated corpus file with the file named", async () => {
    const dir = tempDir();
    const f = join(dir, "cut.json");
    writeFileSync(f, JSON.stringify({ arguments: [argsMeArgument(1), argsMeArgument(2)] }).slice(0, 300));
    await expect(collect(readArgsMe(f))).rejects.toThrow(
      new RegExp(`^${f.replaceAll("/", "\\/")}:byte \\d+: expected valid JSON, found `),
    );
  });

  it.each([
    [
      "an id of the wrong type",
      (a: Record<string, unknown>) => ({ ...a, id: 5 }),
      "expected a string in arguments[1].id, found 5",
    ],
    [
      "no conclusion",
      ({ conclusion: _, ...a }: Record<string, unknown>) => a,
      "expected a string in arguments[1].conclusion, found nothing",
    ],
    [
      "premises an object",
      (a: Record<string, unknown>) => ({ ...a, premises: {} }),
      "expected an array in arguments[1].premises, found an object",
    ],
    [
      "a premise without text",
      (a: Record<string, unknown>) => ({ ...a, premises: [{ stance: "PRO" }] }),
      "expected a string in arguments[1].premises[0].text, found nothing",
    ],
    ["an argument that is null", () => null, "expected an object in arguments[1], found null"],
  ])("refuses %s: one InputError naming the file and the field", async (_, mutate, message) => {
    const f = join(tempDir(), "bad.json");
    writeFileSync(f, JSON.stringify({ arguments: [argsMeArgument(1), mutate(argsMeArgument(2))] }));
    const e = await collect(readArgsMe(f)).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(InputError);
    expect(e).toHaveProperty("message", `${f}: ${message}`);
  });

  it("keeps every field of an argument, in the file's order", async () => {
    const f = join(tempDir(), "order.json");
    const arg = {
      context: { x: 1 },
      premises: [{ stance: "CON", text: "p", annotations: [] }],
      id: "a",
      conclusion: "c",
    };
    writeFileSync(f, JSON.stringify({ arguments: [arg] }));
    const got = [];
    for await (const b of readArgsMe(f)) got.push(...b);
    expect(JSON.stringify(got)).toBe(JSON.stringify([arg]));
  });

  it("reads topics.xml with optional fields and XML entities", async () => {
    const f = join(tempDir(), "topics.xml");
    writeFileSync(
      f,
      `<?xml version="1.0"?>\n<topics>\n<topic>\n<number>1</number>\n<title>Should teachers get tenure?</title>\n<description>A user &amp; a "question"</description>\n<narrative>Highly relevant &lt;arguments&gt;</narrative>\n</topic>\n<topic><number>2</number><title>Is vaping with e-cigarettes safe?</title></topic>\n</topics>\n`,
    );
    expect(await readToucheTopics(f)).toEqual([
      {
        number: 1,
        title: "Should teachers get tenure?",
        description: 'A user & a "question"',
        narrative: "Highly relevant <arguments>",
      },
      { number: 2, title: "Is vaping with e-cigarettes safe?" },
    ]);
  });

  it("refuses topics.xml that is not well formed, at the line and column where it breaks", async () => {
    const good = `<?xml version="1.0"?>\n<topics>\n<topic>\n<number>1</number>\n<title>T &amp; U</title>\n</topic>\n</topics>\n`;
    const cases: [string, string][] = [
      [good.slice(0, good.indexOf("<title>") + 7), ":5:8: expected </title>, found end of file"],
      [good.slice(0, good.indexOf("<title>") + 3), ':5:1: expected a tag (<name …>), found "<ti"'],
      [good.slice(0, good.indexOf("</topics>")), ":7:1: expected </topics>, found end of file"],
      [good.replace("</title>", "</titl>"), ':5:17: expected </title>, found "</titl>\\n</to"'],
      [
        good.replace("&amp;", "&bogus;"),
        ':5:10: expected an entity (&amp; &lt; &gt; &quot; &apos; &#N;), found "&bogus;"',
      ],
      [
        good.replace("&amp;", "& "),
        ':5:10: expected an entity (&amp; &lt; &gt; &quot; &apos; &#N;), found "&"',
      ],
      [`${good}<topics/>`, ":8:1: expected one root element, found a second one, <topics>"],
      [good.replace("<topics>", "<topics>\u0000"), ":2:9: expected a character XML allows, found U+0000"],
    ];
    for (const [text, message] of cases) {
      const f = join(tempDir(), "topics.xml");
      writeFileSync(f, text);
      const e = await readToucheTopics(f).then(
        () => undefined,
        (x: Error) => x,
      );
      expect(e?.message, text).toContain(`${f}${message}`);
    }
    const bad = join(tempDir(), "topics.xml");
    writeFileSync(
      bad,
      Buffer.concat([Buffer.from(good.slice(0, 50)), Buffer.from([0xff]), Buffer.from(good.slice(50))]),
    );
    await expect(readToucheTopics(bad)).rejects.toThrow(/expected valid UTF-8, found byte 0xff/);
  });

  it("joins relevance and quality qrels on (qid, docno) whatever their line order; -2 spam counts 0", () => {
    const rel = [
      { qid: "1", iter: "0", docno: "a", rel: 2 },
      { qid: "1", iter: "0", docno: "b", rel: -2 },
    ];
    const qual = [
      { qid: "1", iter: "0", docno: "b", rel: 0 },
      { qid: "2", iter: "0", docno: "a", rel: 3 },
      { qid: "1", iter: "0", docno: "a", rel: 1 },
    ];
    expect(joinToucheQrels(rel, qual)).toEqual([
      { qid: "1", docno: "a", relevance: 2, quality: 1 },
      { qid: "1", docno: "b", relevance: -2, quality: 0 },
      { qid: "2", docno: "a", quality: 3 },
    ]);
    expect([toucheGain(-2), toucheGain(0), toucheGain(3)]).toEqual([0, 0, 3]);
  });
});
