// spaCy's senter goldens (shared): the 16,489 texts with spaCy 3.8.16's tokens and sentences, and the model folder.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { shared } from "./shared.js";

/** One golden text as make_senter_golden.py wrote it. */
export interface SpacyGolden {
  id: string;
  text: string;
  tokens: string[];
  ws: string;
  sent: string;
  sentences: string[];
  near: [number, number][];
}

/** The shared en_core_web_sm 3.8.0 folder (the senter's parts). */
export const spacyModel = (): string => shared("models", "en_core_web_sm-3.8.0");

/** A gzipped JSONL file of the spacy-senter goldens. */
export function readSpacyGoldens<T = SpacyGolden>(name = "senter_golden.jsonl.gz"): T[] {
  return gunzipSync(readFileSync(shared("golden", "spacy-senter", name)))
    .toString("utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as T);
}
