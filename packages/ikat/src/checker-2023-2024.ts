// The official iKAT 2023/2024 run checkers (2023|2024/scripts/run_validation/main.py + utils.py,
// run with -S or with a passage-id service) re-done: the same checks in the same order, each of
// their log lines (WARNING/ERROR) as a finding with its turn and the line in the run file, the same
// exit (0, or 255 → invalid), the same warning count and --max_warnings rule.
import {
  type IkatTopic,
  PyException,
  PyJsonDecodeError,
  type PyJsonDoc,
  pyJsonLoadBytes,
  pyJsonTypeName,
  pyStrRepr,
} from "@convkit/formats";
import { formatPyFloat } from "@convkit/pycompat";
import type { Finding } from "./finding.js";
import { ProtoParseError, type ProtoRun, parseProtoRun, pyInt } from "./protobuf-json.js";

/** What the official checker concluded. */
export interface OfficialVerdict {
  /** Its log lines as findings, in its order. */
  findings: Finding[];
  /** false where it exits 255. */
  valid: boolean;
  /** Its warning count where it completes ("Validation completed … with N warnings"). */
  warnings?: number;
  /** The parsed run, where its protobuf parse accepted it. */
  run?: ProtoRun;
  /** The JSON document, where it was JSON. */
  doc?: PyJsonDoc;
}

export interface OfficialOptions {
  /** --max_warnings (the checker's default 2000). */
  maxWarnings?: number;
  /** The passage-id service: the ids of the list not in the collection (absent: run as with -S). */
  missingPassages?: (ids: string[]) => string[];
}

/** The constants of each year's main.py. */
const EXPECTED = { 2023: { topics: 25, turns: 332 }, 2024: { topics: 17, turns: 218 } } as const;

/**
 * main.py's json.load runs two frames below the top level (validate → load_run_file): Python 3.11
 * parses 992 nested arrays there and raises RecursionError at 993 (measured).
 */
const CHECKER_MAX_DEPTH = 992;

class Fatal extends Error {}

/** Runs the year's official checker on the run file's bytes. */
export function officialCheck(
  bytes: Uint8Array,
  topics: readonly IkatTopic[],
  year: 2023 | 2024,
  options: OfficialOptions = {},
): OfficialVerdict {
  const maxWarnings = options.maxWarnings ?? 2000;
  const out: OfficialVerdict = { findings: [], valid: true };
  const log = (level: Finding["level"], message: string, turn?: string, line?: number) =>
    out.findings.push({ ...(line ? { line } : {}), level, ...(turn !== undefined ? { turn } : {}), message });
  // Typed as a whole: TypeScript narrows after a call.
  const fatal: (message: string, turn?: string, line?: number) => never = (message, turn, line) => {
    log("error", message, turn, line);
    throw new Fatal();
  };
  try {
    const expected = EXPECTED[year];
    // load_topic_data
    if (topics.length !== expected.topics)
      fatal(`Topics file not loaded correctly (found ${topics.length} entries, expected ${expected.topics})`);
    const topicTurns = topics.reduce((n, t) => n + t.turns.length, 0);
    if (topicTurns !== expected.turns)
      // Logged as ERROR, and the checker goes on: an error that is neither fatal nor counted.
      log(
        "error",
        `Topics file not loaded correctly (found ${topicTurns} turns, expected ${expected.turns} turns)`,
      );
    // load_run_file
    const inFormat = (e: string, line?: number) =>
      fatal(`Run file not in the right format (${e})`, undefined, line);
    let loaded: PyJsonDoc;
    try {
      loaded = pyJsonLoadBytes(bytes, CHECKER_MAX_DEPTH);
    } catch (e) {
      // main.py catches every Exception of json.load: str(e) in its log line.
      if (e instanceof PyException)
        inFormat(e.pyMessage, e instanceof PyJsonDecodeError ? e.lineno : undefined);
      throw e;
    }
    out.doc = loaded;
    const doc = loaded.value;
    const has = (key: string) => {
      if (doc instanceof Map) return doc.has(key);
      if (Array.isArray(doc) || typeof doc === "string") return doc.includes(key);
      return inFormat(`argument of type '${pyJsonTypeName(doc)}' is not iterable`);
    };
    if (!has("run_name") || !has("run_type")) inFormat("Missing run_name/run_type entry");
    if (!has("turns")) inFormat("Missing turns entry");
    let run: ProtoRun;
    try {
      run = parseProtoRun(loaded, year);
    } catch (e) {
      if (e instanceof ProtoParseError) return inFormat(e.message, e.line);
      throw e;
    }
    out.run = run;
    if (run.turns.length === 0) {
      // Logged as ERROR, yet the checker returns without failing: exit 0 (the run is not refused).
      log("error", "Loaded run file has 0 turns, not performing any validation!");
      return out;
    }
    checkRun(run, topics, year, maxWarnings, options.missingPassages, log, fatal, (n) => {
      out.warnings = n;
    });
  } catch (e) {
    if (!(e instanceof Fatal)) throw e;
    out.valid = false;
  }
  return out;
}

type Log = (level: Finding["level"], message: string, turn?: string, line?: number) => void;
type FatalLog = (message: string, turn?: string, line?: number) => never;

/** validate_run, validate_all_turns and validate_turn of main.py. */
function checkRun(
  run: ProtoRun,
  topics: readonly IkatTopic[],
  year: 2023 | 2024,
  maxWarnings: number,
  missingPassages: OfficialOptions["missingPassages"],
  log: Log,
  fatal: FatalLog,
  done: (warnings: number) => void,
) {
  let total = 0;
  const warn = (message: string, turn?: string, line?: number) => {
    log("warning", message, turn, line);
    total++;
  };
  if (run.run_name.length === 0) warn("Run has an empty run_name field");
  if (run.run_type.length === 0) warn("Run has an empty run_type field");
  if (year === 2023 && run.run_type !== "automatic" && run.run_type !== "manual")
    warn('Run has an unrecognised type, should be "automatic" or "manual"!');
  if (year === 2024 && !["automatic", "manual", "only_response"].includes(run.run_type))
    warn("Run has an unrecognised type, should be one of {'automatic', 'manual', 'only_response'}");

  const expected = EXPECTED[year];
  if (run.turns.length !== expected.turns)
    fatal(`The run contains ${run.turns.length} turns, but the test topics contain ${expected.turns} turns`);
  // Turn ids split into topic and turn number; 2024 reads the topic as an int too.
  const byTopic = new Map<string, { turn: ProtoRun["turns"][number]; n: bigint; topic: string }[]>();
  for (const turn of run.turns) {
    const split = splitTurnId(turn.turn_id, year);
    if (split.error !== undefined)
      fatal(
        `Failed to parse turn ID "${turn.turn_id}", exception was ${split.error}`,
        turn.turn_id,
        turn.line,
      );
    const { topic, n } = split;
    const list = byTopic.get(topic) ?? [];
    list.push({ turn, n, topic });
    byTopic.set(topic, list);
  }
  if (byTopic.size !== expected.topics)
    fatal(`The run contains ${byTopic.size} topics, the expected number is ${expected.topics}`);
  const topicOf = new Map(topics.map((t) => [t.number, t]));
  for (const t of topics) {
    const got = byTopic.get(t.number);
    if (!got) fatal(`The topic ${t.number} does not appear in the run file`);
    else if (got.length !== t.turns.length)
      fatal(`The topic ${t.number} should have ${t.turns.length} turns but actually has ${got.length} turns`);
  }
  for (const list of byTopic.values())
    for (const { turn, n, topic: key } of list) {
      const topic = topicOf.get(key)!;
      const max = topic.turns.length;
      if (n < 1n || n > BigInt(max))
        fatal(
          `Turn ${turn.turn_id} has an invalid turn ID ${n}, expected range: 1-${max}`,
          turn.turn_id,
          turn.line,
        );
      checkTurn(turn, topic, year, run.run_type, missingPassages, warn, fatal);
      if (total > maxWarnings)
        fatal(
          `Maximum number of warnings exceeded (${total} > ${maxWarnings}), aborting!`,
          turn.turn_id,
          turn.line,
        );
    }
  // "Validation completed on N/N turns with W warnings": the summary, not a finding.
  done(total);
}

/** `turn_id.split('_')` then int(): the topic key (2024: the int's text) and the turn number, or Python's exception. */
function splitTurnId(
  id: string,
  year: 2023 | 2024,
): { topic: string; n: bigint; error?: undefined } | { error: string } {
  const parts = id.split("_");
  if (year === 2024) {
    const ints: bigint[] = [];
    for (const p of parts) {
      const v = pyInt(p);
      if (v === undefined) return { error: `invalid literal for int() with base 10: ${pyStrRepr(p)}` };
      ints.push(v);
    }
    const [topic, n] = ints;
    if (ints.length !== 2 || topic === undefined || n === undefined)
      return { error: unpackError(ints.length) };
    return { topic: String(topic), n };
  }
  const [topic, num] = parts;
  if (parts.length !== 2 || topic === undefined || num === undefined)
    return { error: unpackError(parts.length) };
  const v = pyInt(num);
  if (v === undefined) return { error: `invalid literal for int() with base 10: ${pyStrRepr(num)}` };
  return { topic, n: v };
}

function unpackError(n: number): string {
  return n < 2
    ? `not enough values to unpack (expected 2, got ${n})`
    : "too many values to unpack (expected 2)";
}

/** validate_turn with check_response, check_passage_provenance and check_ptkb_provenance. */
function checkTurn(
  turn: ProtoRun["turns"][number],
  topic: IkatTopic,
  year: 2023 | 2024,
  runType: string,
  missingPassages: OfficialOptions["missingPassages"],
  warn: (message: string, turn?: string, line?: number) => void,
  fatal: FatalLog,
) {
  const id = turn.turn_id;
  if (missingPassages) {
    const ids = [...new Set(turn.responses.flatMap((r) => r.passage_provenance.map((p) => p.id)))];
    for (const m of missingPassages(ids))
      warn(`Provenance with ID ${m} does not exist in the passage collection`, id, turn.line);
  }
  const ptkb = new Map(topic.ptkb.map((p) => [p.id, p.text]));
  turn.responses.forEach((r, i) => {
    // previous_rank is never updated in main.py: a rank <= 0 is what this catches.
    if (r.rank === 0) warn(`Response rank for turn ${id} is missing or equal to 0`, id, r.line);
    if (r.rank <= 0)
      warn(
        `Current rank ${r.rank} is less than or equal to previous rank 0 for turn ${id}. Provenance ranking may not be in descending order`,
        id,
        r.line,
      );
    if (r.text.length === 0 && (year === 2023 || runType !== "only_response"))
      warn(`Response text for turn ${id} is missing`, id, r.line);
    let prev = 1e9;
    for (const p of r.passage_provenance) {
      if (p.score > prev)
        warn(
          `Provenance entry with ID ${p.id} in turn ${id} has a greater score than the previous passage (${formatPyFloat(p.score)} > ${formatPyFloat(prev)}${year === 2024 ? ")" : ""}. Ranking order for turn ${id} not correct`,
          id,
          p.line,
        );
      if (!p.id.startsWith("clueweb22-"))
        warn(`${p.id} does not have a "clueweb22-" prefix, may be invalid`, id, p.line);
      if (p.id.split(":").length !== 2)
        warn(`${p.id} seems to be formatted incorrectly (missing/extra colons?)`, id, p.line);
      prev = p.score;
    }
    if (!r.passage_provenance.some((p) => p.used))
      warn(
        `Turn ${id}, response #${i} has no passages marked as "used"! The top 5 passages will be used as provenance by default`,
        id,
        r.line,
      );
    if (r.passage_provenance.length === 0)
      warn(`Turn ${id} has a response with no passage provenances`, id, r.line);
    else if (r.passage_provenance.length > 1000)
      warn(`Turn ${id} has a response with >1000 passages (${r.passage_provenance.length})`, id, r.line);
    if (r.ptkb_provenance.length === 0) {
      warn(`No PTKB provenances listed for a response in turn ${id}!`, id, r.line);
      return;
    }
    let prevPtkb = 1e9;
    for (const p of r.ptkb_provenance) {
      if (typeof p === "number") {
        if (p < 0 || p > ptkb.size)
          fatal(`A PTKB provenance ID ${p} is outside the valid range (1--${ptkb.size})`, id, r.line);
        continue;
      }
      if (p.id.length === 0) fatal(`A PTKB provenance ID in turn ${id} is empty`, id, p.line);
      if (!ptkb.has(p.id)) fatal(`PTKB provenance with ID ${p.id} in turn ${id} is invalid`, id, p.line);
      if (p.text !== ptkb.get(p.id))
        fatal(`PTKB provenance with ID ${p.id} in turn ${id} has a text mismatch`, id, p.line);
      if (p.score > prevPtkb)
        warn(
          `PTKB provenance with ID ${p.id} in turn ${id} has a score greater than the previous entry, ordering may be incorrect`,
          id,
          p.line,
        );
      prevPtkb = p.score;
    }
  });
}
