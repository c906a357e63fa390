// What a job carries around its payload, and how a failure travels: told apart by data (a role
// field, a failure record), never by the payload's shape or a message's wording.
import { anyErrorToData, ConvkitError, type ErrorData, errorFromData } from "@convkit/io";
import { Fields, tryParseJson } from "@convkit/json";
import { jobDataMismatch, type UnitFailure } from "./kind.js";

/** A run's parent job: its run, how many units it has, its kind's payload. */
export interface RunEnvelope {
  readonly role: "run";
  readonly runId: string;
  readonly units: number;
  readonly payload: unknown;
}

/** A unit of a run: its run, its place in the run, its key (an input's path), its kind's payload. */
export interface UnitEnvelope {
  readonly role: "unit";
  readonly runId: string;
  readonly index: number;
  readonly key: string;
  readonly payload: unknown;
}

export type JobEnvelope = RunEnvelope | UnitEnvelope;

const ROLES = ["run", "unit"] as const;

/** A job's data read as an envelope (the payload left to its kind); thrown: JobDataError. */
export function readEnvelope(data: unknown): JobEnvelope {
  const f = Fields.of(data, jobDataMismatch("job data"));
  const runId = f.string("runId");
  if (f.choice("role", ROLES) === "run")
    return { role: "run", runId, units: f.integer("units"), payload: f.get("payload") };
  return { role: "unit", runId, index: f.integer("index"), key: f.string("key"), payload: f.get("payload") };
}

/** A job's envelope, or undefined for data that is not convkit's (status skips such jobs). */
export function envelopeOrNothing(data: unknown): JobEnvelope | undefined {
  try {
    return readEnvelope(data);
  } catch {
    return undefined;
  }
}

/** What a unit returns to its parent: its place in the run and its kind's result. */
export interface UnitReturn {
  readonly index: number;
  readonly value: unknown;
}

export function readUnitReturn(v: unknown): UnitReturn {
  const f = Fields.of(v, jobDataMismatch("unit result"));
  return { index: f.integer("index"), value: f.get("value") };
}

/**
 * BullMQ keeps a failure as a string (the error's message): a convkit failure is the error as
 * @convkit/io's codec gives it, in JSON there, so the run reads its class, code, exit code and
 * causes without parsing prose.
 */
interface FailureRecord {
  convkitFailure: ErrorData;
}

/** A job's failure as the string BullMQ keeps (see {@link failureError}). */
export function encodeFailure(e: unknown): string {
  return JSON.stringify({ convkitFailure: anyErrorToData(e) } satisfies FailureRecord);
}

/**
 * A failed reason read back as its error, class and causes restored; one that is not a record
 * (BullMQ's own: a job stalled too often) is a ConvkitError (exit 1) with that reason.
 */
export function failureError(reason: string): Error {
  const parsed = tryParseJson(reason);
  if (!parsed.ok) return new ConvkitError(reason);
  const v = parsed.value;
  const e =
    typeof v === "object" && v !== null && "convkitFailure" in v
      ? errorFromData(v.convkitFailure)
      : undefined;
  return e instanceof Error ? e : new ConvkitError(reason);
}

/** What a run reports of a failed unit: its one line, and whether it was bad input (exit 2). */
export function decodeFailure(reason: string): UnitFailure {
  const e = failureError(reason);
  return { reason: e.message, badInput: e instanceof ConvkitError && e.exitCode === 2 };
}
