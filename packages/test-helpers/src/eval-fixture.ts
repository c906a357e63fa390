// A small ClariQ-shaped collection written by tests: topics, facets, questions, documents, graded facet qrels.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Deterministic pseudo-random numbers in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS =
  "garden soil plant water light tomato seed winter summer price store online review recipe cheese bread oven travel hotel flight beach museum ticket history battle king castle river bridge tower map city train station schedule phone battery screen repair warranty dog breed puppy food vet insurance".split(
    " ",
  );

/**
 * Writes `dev.tsv`, `question_bank.tsv`, `docs.run` (100-200 documents per topic), `docs.jsonl`
 * and `dev.qrel` (grades -2..4; one facet without relevant documents) into `dir`.
 */
export function writeEvalFixture(dir: string, seed = 7): { topics: number[]; facets: string[] } {
  const r = rng(seed);
  const pick = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]!).join(" ");
  const rows = [
    "topic_id\tinitial_request\ttopic_desc\tclarification_need\tfacet_id\tfacet_desc\tquestion_id\tquestion\tanswer",
  ];
  const bank = ["question_id\tquestion", "Q00001\t"];
  const run: string[] = [];
  const docs: string[] = [];
  const qrels: string[] = [];
  const topics = [201, 202, 203];
  const facets: string[] = [];
  let q = 2;
  let f = 1;
  for (const t of topics) {
    const request = pick(3);
    const nq = 3 + Math.floor(r() * 3);
    const questions = Array.from({ length: nq }, () => ({
      id: `Q${String(q++).padStart(5, "0")}`,
      text: `are you looking for ${pick(2)}`,
    }));
    for (const x of questions) bank.push(`${x.id}\t${x.text}`);
    const nDocs = 100 + Math.floor(r() * 100);
    const ids = Array.from(
      { length: nDocs },
      (_, i) => `fx-${t}-${String(Math.floor(r() * 1e5)).padStart(5, "0")}-${i}`,
    );
    ids.forEach((id, i) => {
      docs.push(JSON.stringify({ id, text: `${pick(20 + Math.floor(r() * 200))}. ${request}` }));
      run.push(`${t} Q0 ${id} ${i + 1} ${(1000 - i / 2).toFixed(1)} fixture`);
    });
    for (let k = 0; k < 2 + Math.floor(r() * 2); k++) {
      const fid = `F${String(f++).padStart(4, "0")}`;
      facets.push(fid);
      for (const x of questions)
        rows.push(
          `${t}\t${request}\tdesc\t2\t${fid}\tfacet ${pick(2)}\t${x.id}\t${x.text}\t${r() < 0.5 ? "no" : "yes"} ${pick(3)}`,
        );
      const empty = t === 203 && k === 0;
      for (const id of ids)
        if (r() < 0.3)
          qrels.push(`${fid} 0 ${id} ${empty ? -(Math.floor(r() * 3)) : Math.floor(r() * 7) - 2}`);
    }
  }
  writeFileSync(join(dir, "dev.tsv"), `${rows.join("\n")}\n`);
  writeFileSync(join(dir, "question_bank.tsv"), `${bank.join("\n")}\n`);
  writeFileSync(join(dir, "docs.run"), `${run.join("\n")}\n`);
  writeFileSync(join(dir, "docs.jsonl"), `${docs.join("\n")}\n`);
  writeFileSync(join(dir, "dev.qrel"), `${qrels.join("\n")}\n`);
  return { topics, facets };
}

/** The arguments every gen:eval run over the fixture passes: its data folder, run, texts and qrels. */
export function evalFixtureArgs(dir: string): string[] {
  return [
    "--data",
    dir,
    "--docs",
    join(dir, "docs.run"),
    "--texts",
    join(dir, "docs.jsonl"),
    "--qrels",
    join(dir, "dev.qrel"),
  ];
}
