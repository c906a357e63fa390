// Writes an args.me-shaped corpus file of about `mb` megabytes (real schema fields), streaming.

import { once } from "node:events";
import { createWriteStream } from "node:fs";

export async function generateArgsMe(path, mb) {
  const out = createWriteStream(path);
  const words =
    "the of tenure teachers should argument debate school policy evidence because however therefore public students".split(
      " ",
    );
  let size = 0;
  let i = 0;
  const target = mb * 1024 * 1024;
  out.write('{"arguments": [');
  while (size < target) {
    let text = "";
    const len = 200 + ((i * 7919) % 1800);
    for (let k = 0; text.length < len; k++) text += `${words[(i + k * 31) % words.length]} `;
    const arg = {
      premises: [{ text: `${text.trim()} “quoted” é`, stance: i % 2 ? "CON" : "PRO", annotations: [] }],
      context: {
        sourceId: `s${i}`,
        previousArgumentInSourceId: "",
        acquisitionTime: "2019-04-18T17:59:57Z",
        discussionTitle: `Debate ${i % 997}`,
        sourceTitle: "Debate",
        sourceUrl: `https://www.debate.org/debates/${i}/`,
        nextArgumentInSourceId: "",
      },
      id: `S${((i * 2654435761) >>> 0).toString(16)}-A${i}`,
      conclusion: `Conclusion number ${i} about tenure`,
    };
    const s = (i === 0 ? "" : ", ") + JSON.stringify(arg);
    size += s.length;
    if (!out.write(s)) await once(out, "drain");
    i++;
  }
  out.write("]}\n");
  out.end();
  await once(out, "finish");
  return i;
}
