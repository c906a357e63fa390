// TREC iKAT 2025's validate_trec_ikat25.py (both fixes on, as its defaults are) reproduced step by
// step on Python's semantics: its stdout, its exit code, the .fixed file it writes, and where it
// stops with a traceback. Its quirks are kept, since they are the organizers' verdicts.
import {
  PyException,
  type PyJson,
  PyJsonDecodeError,
  PySet,
  pyJsonDumps,
  pyJsonLoads,
  pyJsonTypeName,
  pyLt,
  pyNfkcTokenCount,
  pyStr,
  pyTextLines,
} from "@convkit/formats";
import { pyStrip } from "@convkit/pycompat";
import type { Finding } from "./finding.js";
import {
  checkEncodable,
  isDict,
  pyGet,
  pyGetItem,
  pyIn,
  pyIter,
  pyLen,
  pySliceHead,
  pySortedItemsDesc,
} from "./py-ops-2025.js";

export interface Validate2025Result {
  /** The official script's stdout, line by line. */
  stdout: string[];
  /** Its exit code: 0 passed, 1 failed (errors found, or it stopped with a traceback). */
  exitCode: 0 | 1;
  /** The findings: its errors and warnings with their lines, then convkit's notes (`convkit: …`). */
  findings: Finding[];
  /** The bytes of the `.fixed` file it writes, or null where it writes none. */
  fixed: Uint8Array | null;
  /** Where it stopped with a traceback: the line (0: after the lines, listing turn ids) and `Type: message`. */
  crash?: { line: number; error: string };
}

const CLUEWEB_PATTERN = /^clueweb22-en\p{Nd}{4}-\p{Nd}{2}-\p{Nd}{5}:\p{Nd}+\n?$/u;
const REQUIRED_METADATA_KEYS = ["team_id", "run_id", "run_type"];
const ALLOWED_TYPES = new PySet();
for (const t of ["manual", "automatic", "generation-only"]) ALLOWED_TYPES.add(t);
const RESPONSE_LIMIT = 250;
const CITATION_LIMIT = 1000;
const DICT_MSG = "must be a dict, with segment IDs as keys and scores as values";

/** `load_topic_ids`: "<number>_<turn_id>" of every topic's responses, as a set. */
export function topicTurnIds2025(topics: PyJson): Set<string> {
  const ids = new Set<string>();
  for (const topic of pyIter(topics)) {
    const number = pyGet(topic, "number");
    for (const response of pyIter(pyGet(topic, "responses", []))) {
      const turn = pyGet(response, "turn_id");
      if (number !== null && turn !== null) ids.add(`${pyStr(number)}_${pyStr(turn)}`);
    }
  }
  return ids;
}

/** `compute_response_length`: NFKC whitespace-split tokens of every response's stripped text. */
function responseLength(entry: PyJson): number {
  let total = 0;
  for (const a of pyIter(pyGet(entry, "responses", []))) total += textTokens(pyGet(a, "text", ""));
  return total;
}

function textTokens(text: PyJson): number {
  if (typeof text !== "string")
    throw new PyException("AttributeError", `'${pyJsonTypeName(text)}' object has no attribute 'strip'`);
  return pyNfkcTokenCount(pyStrip(text));
}

class Run {
  readonly out: string[] = [];
  readonly findings: Finding[] = [];
  turn: string | undefined;
  constructor(readonly line: number) {}
  print(s: string): void {
    checkEncodable(s);
    this.out.push(s);
  }
  find(level: Finding["level"], message: string): void {
    this.findings.push({
      line: this.line,
      level,
      ...(this.turn !== undefined ? { turn: this.turn } : {}),
      message,
    });
  }
}

/** `fix_citations`: dedupe (and trim to 1,000) the references, dropping citations no longer there. */
function fixCitations(entry: Map<string, PyJson>, r: Run, i: number): string[] {
  let refs: PyJson = entry.has("references") ? (entry.get("references") as PyJson) : [];
  try {
    refs = pySortedItemsDesc(refs).map(([k]) => k);
  } catch (e) {
    if (!(e instanceof PyException)) throw e;
    r.print(`[Fix-${i}] references ${DICT_MSG}: ${e.pyMessage}`);
  }
  const warnings: string[] = [];
  const warn = (msg: string) => {
    warnings.push(msg);
    r.print(`[Fix-${i}] WARNING: ${msg}`);
  };
  const originalCount = pyLen(refs);
  const seen = new PySet();
  const unique: PyJson[] = [];
  for (const ref of pyIter(refs)) {
    if (!seen.has(ref)) {
      seen.add(ref);
      unique.push(ref);
    }
  }
  if (unique.length !== originalCount) {
    warn(`removed ${originalCount - unique.length} duplicate reference(s)`);
    entry.set("references", unique);
    refs = unique;
  }
  const n = pyLen(refs);
  if (n > CITATION_LIMIT) {
    r.print(`[Fix-${i}] references length=${n} > ${CITATION_LIMIT}. Trimming...`);
    entry.set("references", pySliceHead(refs, CITATION_LIMIT));
    warn(`references trimmed from ${n} to ${CITATION_LIMIT}`);
    const valid = new PySet();
    for (const ref of pyIter(entry.get("references") as PyJson)) valid.add(ref);
    pyIter(entry.has("responses") ? (entry.get("responses") as PyJson) : []).forEach((resp, idx) => {
      if (!pyIn("citations", resp)) return;
      const old = pyGetItem(resp, "citations");
      const kept = pyIter(old).filter((c) => valid.has(c));
      const oldLen = pyLen(old);
      if (kept.length !== oldLen)
        warn(
          `responses[${idx}].citations: dropped ${oldLen - kept.length} citation(s) not found in trimmed references`,
        );
      (resp as Map<string, PyJson>).set("citations", kept);
    });
  }
  return warnings;
}

/**
 * `fix_ikat_responses`: drops responses from the end while the run's tokens exceed 250;
 * `current` is `compute_response_length(entry)` as it starts.
 */
function fixLength(entry: Map<string, PyJson>, r: Run, i: number, current: number): number {
  if (current <= RESPONSE_LIMIT) return current;
  r.print(`[Fix-${i}] response_length=${current} > ${RESPONSE_LIMIT}. Trimming responses...`);
  const responses = pyGetItem(entry, "responses") as PyJson[];
  while (current > RESPONSE_LIMIT && responses.length) {
    const last = responses.pop() as PyJson;
    current -= textTokens(pyGetItem(last, "text"));
  }
  return current;
}

function sortedKeys(v: PyJson): string[] {
  return pySortedItemsDesc(v).map(([k]) => k);
}

/** `validate_entry`. */
function validateEntry(entry: Map<string, PyJson>): [string[], string[]] {
  const errors: string[] = [];
  const warnings: string[] = [];
  const md = entry.get("metadata") ?? null;
  if (!isDict(md)) errors.push("metadata must be an object");
  else {
    const missing = REQUIRED_METADATA_KEYS.filter((k) => !md.has(k));
    // A set's repr: its order follows string hashes, random per process; this is the source's order.
    if (missing.length) errors.push(`metadata missing keys: {${missing.map((k) => `'${k}'`).join(", ")}}`);
    if (md.has("run_type") && !ALLOWED_TYPES.has(md.get("run_type") as PyJson))
      errors.push(`invalid metadata.run_type: ${pyStr(md.get("run_type") as PyJson)}`);
    if (!md.has("run_type")) warnings.push("field 'run_type' is missing from metadata");
  }
  let refs: PyJson = entry.get("references") ?? null;
  try {
    refs = sortedKeys(refs);
  } catch (e) {
    if (!(e instanceof PyException)) throw e;
    errors.push(`references ${DICT_MSG}: ${e.pyMessage}`);
  }
  if (!Array.isArray(refs)) errors.push("references error in the format");
  else
    refs.forEach((ref, i) => {
      if (typeof ref !== "string" || !CLUEWEB_PATTERN.test(ref))
        warnings.push(`reference[${i}] not in CLUEWEB_PATTERN format: ${pyStr(ref)}`);
    });
  const ans = entry.has("responses") ? (entry.get("responses") as PyJson) : [];
  if (!Array.isArray(ans)) errors.push("responses must be a list");
  else
    ans.forEach((a, idx) => {
      if (!isDict(a)) {
        errors.push(`responses[${idx}] must be object`);
        return;
      }
      if (typeof a.get("text") !== "string") errors.push(`responses[${idx}].text missing or not string`);
      if (!a.has("citations")) errors.push(`responses[${idx}].citations missing`);
      if (!a.has("ptkb_provenance")) {
        errors.push(`responses[${idx}].ptkb_provenance missing`);
        return;
      }
      let cits: string[];
      try {
        cits = sortedKeys(pyGetItem(a, "citations"));
      } catch (e) {
        if (!(e instanceof PyException) || e.pyType === "KeyError") throw e;
        errors.push(`responses[${idx}].citations ${DICT_MSG}: ${e.pyMessage}`);
        return;
      }
      for (const c of cits)
        if (!pyIn(c, refs)) errors.push(`responses[${idx}].citation not found in references: ${c}`);
    });
  return [errors, warnings];
}

/** Where convkit reads a line differently from the official script (its verdict stands). */
function convkitNotes(entry: Map<string, PyJson>, fixWarnings: string[], errors: string[]): string[] {
  const notes: string[] = [];
  if (errors.some((e) => e.startsWith("metadata missing keys: {") && e.includes(",")))
    notes.push("Python prints this set of keys in an order that changes from run to run (string hashing)");
  if (fixWarnings.some((w) => w.startsWith("references trimmed")) && errors.some((e) => e.includes(DICT_MSG)))
    notes.push(
      "the validator itself trimmed the references to 1,000, turning them and the citations into lists; its own check then refuses them (the .fixed file fails too)",
    );
  const md = entry.get("metadata");
  if (!entry.has("turn_id") && isDict(md) && md.has("turn_id"))
    notes.push(
      `turn_id is read from the top level only: metadata.turn_id ${pyStr(md.get("turn_id") as PyJson)} is ignored`,
    );
  const refs = entry.get("references");
  if (isDict(refs) && [...refs.values()].some((v) => typeof v === "number" && !Number.isFinite(v)))
    notes.push(
      "NaN or Infinity scores are not JSON (RFC 8259): Python reads them, and NaN makes the sort order arbitrary",
    );
  return notes;
}

/** Runs validate_trec_ikat25.py on a run's bytes: `inputName` is what its messages call the run. */
export function validateRun2025(
  bytes: Uint8Array,
  topicIds: Set<string>,
  inputName: string,
  file = inputName,
): Validate2025Result {
  const stdout = [`Loaded ${topicIds.size} unique turn IDs from topics.`];
  const findings: Finding[] = [];
  const submitted = new Set<string>();
  // What the .fixed file gets, line by line: a fixed entry itself, else its line's text, parsed
  // again only if a .fixed file is written (an entry the fixes left alone is the line's json.loads;
  // not holding every parsed run line keeps them out of the old generation: less GC).
  const toWrite: ({ entry: PyJson } | { line: string })[] = [];
  let anyFixes = false;
  let totalErrors = 0;
  let totalWarnings = 0;
  const lines = pyTextLines(file, bytes);
  for (let n = 0; n < lines.length; n++) {
    const i = n + 1;
    const line = pyStrip(lines[n] as string);
    if (!line) continue;
    const r = new Run(i);
    try {
      let entry: PyJson;
      try {
        entry = pyJsonLoads(line);
      } catch (e) {
        if (!(e instanceof PyJsonDecodeError)) throw e;
        r.print(`[Line ${i}] ❌ JSON decode error: ${e.pyMessage}`);
        r.find("error", `JSON decode error: ${e.pyMessage}`);
        totalErrors++;
        stdout.push(...r.out);
        findings.push(...r.findings);
        continue;
      }
      const turn = pyGet(entry, "turn_id");
      if (typeof turn === "string") {
        submitted.add(turn);
        r.turn = turn;
      }
      const e = entry as Map<string, PyJson>;
      const fixWarnings = fixCitations(e, r, i);
      let fixed = fixWarnings.length > 0;
      // The script measures a deep copy (json.loads(json.dumps(entry))) taken before fix_citations;
      // fix_citations changes references and citations only, never the responses list or a
      // text, so the entry measured now gives the copy's length, and fix_ikat_responses's start.
      const originalLength = responseLength(e);
      if (fixLength(e, r, i, originalLength) !== originalLength) fixed = true;
      if (fixed) anyFixes = true;
      const [errors, warnings] = validateEntry(e);
      if (errors.length) {
        r.print(`[Line ${i}] ❌ ERRORS:`);
        for (const err of errors) r.print(`Error: ${err}`);
        totalErrors++;
      }
      const all = [...fixWarnings, ...warnings];
      if (all.length) totalWarnings++;
      for (const w of all)
        if (!w.startsWith("responses[") && !w.startsWith("references")) r.print(`[Line ${i}] WARNING: ${w}`);
      for (const s of r.out)
        if (s.startsWith("[Fix-"))
          r.find("warning", `fix: ${s.slice(s.indexOf("] ") + 2).replace(/^WARNING: /, "")}`);
      for (const err of errors) r.find("error", err);
      for (const w of warnings) r.find("warning", w);
      for (const note of convkitNotes(e, fixWarnings, errors)) r.find("warning", `convkit: ${note}`);
      toWrite.push(fixed ? { entry } : { line });
    } catch (err) {
      if (!(err instanceof PyException)) throw err;
      stdout.push(...r.out);
      findings.push(...r.findings);
      const error = `${err.pyType}: ${err.pyMessage}`;
      findings.push({
        line: i,
        level: "error",
        ...(r.turn ? { turn: r.turn } : {}),
        message: `the official validator stops on this line with ${error} (exit 1, no .fixed file)`,
      });
      return { stdout, exitCode: 1, findings, fixed: null, crash: { line: i, error } };
    }
    stdout.push(...r.out);
    findings.push(...r.findings);
  }
  const fileLevel = (missing: string[], what: string, total: string) => {
    if (!missing.length) return;
    totalErrors++;
    stdout.push("[File] ❌ ERROR:");
    for (const t of missing) {
      checkEncodable(`Error: ${what}: ${t}`);
      stdout.push(`Error: ${what}: ${t}`);
      findings.push({ level: "error", turn: t, message: `${what}: ${t}` });
    }
    stdout.push(`Error: ${total}: ${missing.length}`);
  };
  const byCodePoint = (a: string, b: string) => (pyLt(a, b) ? -1 : pyLt(b, a) ? 1 : 0);
  const missing = [...topicIds].filter((t) => !submitted.has(t)).sort(byCodePoint);
  const additional = [...submitted].filter((t) => !topicIds.has(t)).sort(byCodePoint);
  try {
    fileLevel(missing, "Missing turn_id", "Total missing turn_ids");
    fileLevel(additional, "Additional turn_id not in topics", "Total additional turn_ids");
  } catch (err) {
    // print() of a turn id holding a lone surrogate: the script stops there.
    if (!(err instanceof PyException)) throw err;
    const error = `${err.pyType}: ${err.pyMessage}`;
    findings.push({
      level: "error",
      message: `the official validator stops listing turn ids with ${error} (exit 1, no .fixed file)`,
    });
    return { stdout, exitCode: 1, findings, fixed: null, crash: { line: 0, error } };
  }
  if (!missing.length && !additional.length)
    stdout.push("", "✅ All required turn_ids are present in the submission.");
  let fixedBytes: Uint8Array | null = null;
  if (anyFixes) {
    stdout.push(
      "",
      `Fixes were applied. Writing output to: ${inputName === "-" ? "stdin" : inputName}.fixed`,
    );
    const dumps = (w: (typeof toWrite)[number]) => pyJsonDumps("entry" in w ? w.entry : pyJsonLoads(w.line));
    fixedBytes = Buffer.from(toWrite.map((w) => `${dumps(w)}\n`).join(""), "utf8");
  }
  if (totalErrors) stdout.push("", `Validation completed: ${totalErrors} line(s) with errors.`);
  else if (totalWarnings) stdout.push("", "Validation completed: all lines passed (with possible warnings).");
  else stdout.push("", "Validation completed: all lines passed.");
  return { stdout, exitCode: totalErrors ? 1 : 0, findings, fixed: fixedBytes };
}
