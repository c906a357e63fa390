// iKAT run validation: the official 2023/2024 checkers' verdicts (checker-2023-2024.ts) and convkit's
// own stricter reading of the guidelines, per year: fatal errors and warnings, each with its turn.
import type { IkatTopic, PyJson } from "@convkit/formats";
import { spacyLikeTokens } from "@convkit/segment";
import { type OfficialOptions, officialCheck } from "./checker-2023-2024.js";
import type { Finding } from "./finding.js";

/** The guidelines' years. */
export type IkatYear = 2023 | 2024 | 2025;

/** `clueweb22-enNNNN-NN-NNNNN:k` */
export const PASSAGE_ID = /^clueweb22-en\d{4}-\d{2}-\d{5}:\d+$/;

const MAX_PROVENANCE = 1000;
const MAX_RESPONSE_TOKENS = 250;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v)?.slice(0, 40) ?? String(v);

/** Words of a response as spaCy's tokenizer counts them (what the 250 limit is measured in). */
export function responseTokens(text: string): number {
  return spacyLikeTokens(text).length / 2;
}

/**
 * convkit's own stricter reading of the guidelines (the official 2023/2024 checkers are
 * {@link officialCheck}; {@link judgeRun} reports this beside them, marked {@link CONVKIT_FINDING}):
 * every field is mandatory and no other is allowed (`eval_response` from 2024; the
 * `only_response` run type, whose provenance has no scores, from 2024); turn ids must be the
 * topics' (`topic_turn`), once each; responses ranked 1, 2, … with a text; 1 to 1,000 provenance
 * passages with ids `clueweb22-enNNNN-NN-NNNNN:k`, numeric scores that never increase (ties
 * allowed) and boolean `used` flags; `ptkb_provenance` present (may be empty): 2023 objects
 * `{id, text, score}`, later years statement ids, all of them the topic's. Warnings: turns the
 * run leaves out, an empty text, no passage marked used (the top 5 then count), a passage listed
 * twice, a 2023 PTKB text that differs from the topic's; a response over 250 tokens is a warning
 * in 2024 and fatal in 2025.
 */
export function validateRun(run: unknown, topics: readonly IkatTopic[], year: IkatYear): Finding[] {
  const out: Finding[] = [];
  const err = (message: string, turn?: string) =>
    out.push({ level: "error", message, ...(turn ? { turn } : {}) });
  const warn = (message: string, turn?: string) =>
    out.push({ level: "warning", message, ...(turn ? { turn } : {}) });
  if (!isObj(run)) {
    err(`expected a run object, found ${show(run)}`);
    return out;
  }
  const runTypes = year === 2023 ? ["automatic", "manual"] : ["automatic", "manual", "only_response"];
  const onlyResponse = run.run_type === "only_response";
  const topLevel = [
    "run_name",
    "run_type",
    "turns",
    ...(year >= 2024 && !onlyResponse ? ["eval_response"] : []),
  ];
  for (const k of topLevel) if (!(k in run)) err(`missing field "${k}"`);
  for (const k of Object.keys(run))
    if (!topLevel.includes(k) && !(k === "eval_response" && year >= 2024)) err(`unknown field "${k}"`);
  if ("run_name" in run && (typeof run.run_name !== "string" || run.run_name === ""))
    err(`run_name must be a non-empty string, found ${show(run.run_name)}`);
  if ("run_type" in run && !runTypes.includes(run.run_type as string))
    err(`run_type must be one of ${runTypes.join(", ")}, found ${show(run.run_type)}`);
  if ("eval_response" in run && typeof run.eval_response !== "boolean")
    err(`eval_response must be true or false, found ${show(run.eval_response)}`);
  if (!Array.isArray(run.turns)) {
    if ("turns" in run) err(`turns must be a list, found ${show(run.turns)}`);
    return out;
  }
  const ptkbOf = new Map<string, Map<string, string>>();
  const known = new Set<string>();
  for (const t of topics) {
    const ptkb = new Map(t.ptkb.map((p) => [p.id, p.text]));
    for (const u of t.turns) {
      known.add(`${t.number}_${u.turn_id}`);
      ptkbOf.set(`${t.number}_${u.turn_id}`, ptkb);
    }
  }
  const seen = new Set<string>();
  run.turns.forEach((turn: unknown, ti: number) => {
    if (!isObj(turn)) {
      err(`turn ${ti}: expected an object, found ${show(turn)}`);
      return;
    }
    const id = typeof turn.turn_id === "string" ? turn.turn_id : undefined;
    const where = id ?? `turn #${ti}`;
    for (const k of ["turn_id", "responses"]) if (!(k in turn)) err(`missing field "${k}"`, where);
    for (const k of Object.keys(turn))
      if (k !== "turn_id" && k !== "responses") err(`unknown field "${k}"`, where);
    if ("turn_id" in turn && id === undefined)
      err(`turn_id must be a string, found ${show(turn.turn_id)}`, where);
    if (id !== undefined) {
      if (!known.has(id)) err(`turn_id ${id} is not a turn of the topics file`, id);
      if (seen.has(id)) err(`turn ${id} appears twice`, id);
      seen.add(id);
    }
    if (!Array.isArray(turn.responses) || turn.responses.length === 0) {
      if ("responses" in turn) err("responses must be a non-empty list", where);
      return;
    }
    turn.responses.forEach((r: unknown, ri: number) => {
      const rw = `response ${ri + 1}`;
      if (!isObj(r)) {
        err(`expected a response object, found ${show(r)}`, where);
        return;
      }
      const fields = ["rank", "text", "ptkb_provenance", "passage_provenance"];
      for (const k of fields) if (!(k in r)) err(`${rw}: missing field "${k}"`, where);
      for (const k of Object.keys(r)) if (!fields.includes(k)) err(`${rw}: unknown field "${k}"`, where);
      if ("rank" in r && r.rank !== ri + 1)
        err(`${rw}: rank must be ${ri + 1} (ranks 1, 2, … in order), found ${show(r.rank)}`, where);
      if ("text" in r) {
        if (typeof r.text !== "string") err(`${rw}: text must be a string, found ${show(r.text)}`, where);
        else {
          if (r.text.trim() === "" && run.eval_response !== false && !onlyResponse)
            warn(`${rw}: empty response text`, where);
          const n = responseTokens(r.text);
          if (n > MAX_RESPONSE_TOKENS) {
            const m = `${rw}: ${n} tokens, over the ${MAX_RESPONSE_TOKENS}-token limit`;
            if (year === 2025) err(m, where);
            else if (year === 2024) warn(m, where);
          }
        }
      }
      checkPtkb(r, rw, where, ptkbOf.get(id ?? "") ?? new Map(), year, err, warn);
      checkPassages(r, rw, where, onlyResponse, err, warn);
    });
  });
  const missing = [...known].filter((k) => !seen.has(k));
  if (missing.length > 0)
    warn(
      `${missing.length} of the topics' ${known.size} turns have no entry (first: ${missing.slice(0, 3).join(", ")})`,
    );
  return out;
}

type Report = (message: string, turn?: string) => void;

function checkPtkb(
  r: Obj,
  rw: string,
  where: string,
  ptkb: Map<string, string>,
  year: IkatYear,
  err: Report,
  warn: Report,
) {
  if (!("ptkb_provenance" in r)) return;
  const list = r.ptkb_provenance;
  if (!Array.isArray(list)) {
    err(`${rw}: ptkb_provenance must be a list (it may be empty), found ${show(list)}`, where);
    return;
  }
  list.forEach((p: unknown, i: number) => {
    const pw = `${rw} ptkb_provenance[${i}]`;
    if (year === 2023) {
      if (!isObj(p)) {
        err(`${pw}: expected {id, text, score}, found ${show(p)}`, where);
        return;
      }
      for (const k of ["id", "text", "score"]) if (!(k in p)) err(`${pw}: missing field "${k}"`, where);
      for (const k of Object.keys(p))
        if (!["id", "text", "score"].includes(k)) err(`${pw}: unknown field "${k}"`, where);
      if ("score" in p && (typeof p.score !== "number" || !Number.isFinite(p.score)))
        err(`${pw}: score must be a number, found ${show(p.score)}`, where);
      if ("id" in p) {
        const id = String(p.id);
        if (typeof p.id !== "string" && typeof p.id !== "number")
          err(`${pw}: id must be a statement id, found ${show(p.id)}`, where);
        else if (!ptkb.has(id)) err(`${pw}: PTKB statement ${id} is not in the topic's PTKB`, where);
        else if (typeof p.text === "string" && p.text !== ptkb.get(id))
          warn(`${pw}: text differs from the topic's statement ${id}`, where);
      }
    } else {
      if (typeof p !== "string" && typeof p !== "number")
        err(`${pw}: expected a PTKB statement id, found ${show(p)}`, where);
      else if (!ptkb.has(String(p))) err(`${pw}: PTKB statement ${p} is not in the topic's PTKB`, where);
    }
  });
}

function checkPassages(r: Obj, rw: string, where: string, onlyResponse: boolean, err: Report, warn: Report) {
  if (!("passage_provenance" in r)) return;
  const list = r.passage_provenance;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_PROVENANCE) {
    err(
      `${rw}: passage_provenance must list 1 to ${MAX_PROVENANCE} passages, found ${Array.isArray(list) ? list.length : show(list)}`,
      where,
    );
    if (!Array.isArray(list)) return;
  }
  const fields = onlyResponse ? ["id", "used", "score", "text"] : ["id", "score", "used", "text"];
  const required = onlyResponse ? ["id", "used"] : ["id", "score", "used"];
  let prev = Number.POSITIVE_INFINITY;
  let used = 0;
  const ids = new Set<string>();
  list.forEach((p: unknown, i: number) => {
    const pw = `${rw} passage_provenance[${i}]`;
    if (!isObj(p)) {
      err(`${pw}: expected {id, score, used}, found ${show(p)}`, where);
      return;
    }
    for (const k of required) if (!(k in p)) err(`${pw}: missing field "${k}"`, where);
    for (const k of Object.keys(p)) if (!fields.includes(k)) err(`${pw}: unknown field "${k}"`, where);
    if ("id" in p) {
      if (typeof p.id !== "string" || !PASSAGE_ID.test(p.id))
        err(`${pw}: id must look like clueweb22-enNNNN-NN-NNNNN:k, found ${show(p.id)}`, where);
      else if (ids.has(p.id)) warn(`${pw}: passage ${p.id} listed twice`, where);
      else ids.add(p.id);
    }
    if ("score" in p) {
      if (typeof p.score !== "number" || !Number.isFinite(p.score))
        err(`${pw}: score must be a number, found ${show(p.score)}`, where);
      else {
        if (p.score > prev) err(`${pw}: scores must not increase (${p.score} after ${prev})`, where);
        prev = p.score;
      }
    }
    if ("used" in p) {
      if (typeof p.used !== "boolean") err(`${pw}: used must be true or false, found ${show(p.used)}`, where);
      else if (p.used) used++;
    }
  });
  if (list.length > 0 && used === 0)
    warn(`${rw}: no passage is marked used (the top 5 count as provenance)`, where);
}

/** Marks convkit's own findings (its stricter reading of the guidelines), never the official checker's. */
export const CONVKIT_FINDING = "convkit: ";

/** A 2023/2024 run judged: the official checker's verdict and findings, then convkit's own. */
export interface Judgement {
  findings: Finding[];
  /** The verdict: the official checker's, or with `strict` also convkit's own errors. */
  valid: boolean;
  /** The official checker's warning count where it completes. */
  officialWarnings?: number;
}

/**
 * Judges a 2023/2024 run file as the year's official checker does ({@link officialCheck}), then adds
 * convkit's stricter reading ({@link validateRun}) as findings marked {@link CONVKIT_FINDING}:
 * warnings that leave the verdict alone, or with `strict` errors that fail the run.
 */
export function judgeRun(
  bytes: Uint8Array,
  topics: readonly IkatTopic[],
  year: 2023 | 2024,
  o: OfficialOptions & { strict?: boolean } = {},
): Judgement {
  const official = officialCheck(bytes, topics, year, o);
  const findings = [...official.findings];
  let valid = official.valid;
  if (official.doc !== undefined)
    for (const f of validateRun(plainJson(official.doc.value), topics, year)) {
      const level = o.strict ? f.level : "warning";
      if (level === "error") valid = false;
      findings.push({ ...f, level, message: `${CONVKIT_FINDING}${f.message}` });
    }
  return {
    findings,
    valid,
    ...(official.warnings !== undefined ? { officialWarnings: official.warnings } : {}),
  };
}

/** What JSON.parse would have made of a value Python's json read: ints as numbers (its rules compare numbers). */
function plainJson(v: PyJson): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, plainJson(x)]));
  if (Array.isArray(v)) return v.map(plainJson);
  return typeof v === "bigint" ? Number(v) : v;
}
