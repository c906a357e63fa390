// The Responses view's answer types (iKAT 2025 runs' responses beside the topics' gold): pure, shared with the page.

/** A cited passage: its text from the passage files given, and its grade in the qrels. */
export interface CitationView {
  id: string;
  /** The run's citation score (absent for the topics' gold citations). */
  score?: number;
  /** The passage's text, or null when no passage file given holds it. */
  text: string | null;
  /** Its judged grade for this turn; null when unjudged (or no qrels were given). */
  grade: number | null;
}

export interface ResponseView {
  text: string;
  citations: CitationView[];
  /** The PTKB statements the run says it used: their ids and, when the topic has them, texts. */
  ptkb: { id: string; text: string | null }[];
}

export interface RunTurnView {
  /** The run's name (its file name). */
  name: string;
  team_id: string;
  run_id: string;
  run_type: string;
  /** How many references the run ranks for this turn. */
  references: number;
  /** Its first references as the official generate_run.py ranks them (score, ties in file order). */
  top: { rank: number; id: string; score: number; grade: number | null }[];
  /** Null when the run has no line for this turn. */
  responses: ResponseView[] | null;
}

export interface TurnSummary {
  /** The run's turn id: `<topic number>_<turn>` (e.g. `1-1_3`). */
  id: string;
  utterance: string;
  /** Per run: how many responses it gives here (null: the turn is missing from it). */
  responses: (number | null)[];
  /** Per run: its citations here judged relevant (grade ≥ 1), when qrels are given. */
  relevant: (number | null)[];
}

export interface TurnView {
  id: string;
  topic: string;
  title: string;
  /** The turn's number in its topic. */
  turn: number;
  /** Null for a turn only the runs have (not in the topics). */
  utterance: string | null;
  resolved_utterance: string | null;
  /** The topics' gold: response, cited passages, relevant PTKB statements (id when known, text). */
  gold: { response: string; citations: CitationView[]; ptkb: { id: string | null; text: string }[] } | null;
  runs: RunTurnView[];
  /** The previous and next turn ids (the list's order). */
  prev: string | null;
  next: string | null;
  /** Whether the Runs view ranks this turn's references (2+ runs and qrels given). */
  ranking: boolean;
  /** Whether passage files and qrels were given (else texts and grades are all null). */
  passages: boolean;
  qrels: boolean;
}
