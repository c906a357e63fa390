// Job kinds, each declared once: its name on the queue, its payload and result read back field by
// field (what comes from Redis is untrusted data: another version of convkit may have written
// it), and its handler. The command that submits a run and the worker that runs it use the same
// declaration, so neither side casts.
import { ConvkitError } from "@convkit/io";
import { Fields, type Mismatch, tryParseJson } from "@convkit/json";

/** A job's data or result that is not what its kind says (exit 1: not the user's input). */
export class JobDataError extends ConvkitError {
  override readonly code = "job-data";
  constructor(message: string) {
    super(message);
    this.name = "JobDataError";
  }
}

/** Mismatches of `what` (`segment-file payload`) as {@link JobDataError}s. */
export const jobDataMismatch =
  (what: string): Mismatch =>
  (path, expected, found) =>
    new JobDataError(`${what}: expected ${expected}${path === "" ? "" : ` at ${path}`}, found ${found}`);

/** Builds a T from checked fields (each taken with its check: a mismatch throws). */
export type Reader<T> = (f: Fields) => T;

/** A unit that failed: its one-line reason, and whether it was bad input (exit 2) or anything else (exit 1). */
export interface UnitFailure {
  readonly reason: string;
  readonly badInput: boolean;
}

/** What a handler gets besides its payload. */
export interface JobContext {
  /** Reports progress (items and bytes so far in this job), shown by whoever awaits the run. */
  progress(items: number, bytes: number): void;
  /** A line for whoever runs the worker (its stderr in convkit-worker): what a job redoes, and why. */
  say(line: string): void;
}

/** What a worker gives the kinds it runs. */
export interface WorkerEnv {
  /** Worker threads for CPU work (the worker's main thread only talks to Redis). */
  readonly threads: number;
}

/** A run's parent gets its units' outcomes: results in unit order (failed units left out), and failures. */
export interface UnitOutcomes {
  readonly values: readonly unknown[];
  readonly failed: readonly UnitFailure[];
}

/**
 * A kind as a worker runs it: data in, result out, untyped at this edge (the payload is checked
 * inside, where its type is known). `close` ends what the kind kept between jobs.
 */
export interface KindSession {
  handle(data: unknown, ctx: JobContext, units: UnitOutcomes): Promise<unknown>;
  close(): Promise<void>;
}

/** A job kind: payload P in, result R out. */
export interface JobKind<P, R> {
  readonly name: string;
  /** A payload checked field by field (thrown: {@link JobDataError}). */
  payload(data: unknown): P;
  /** A result checked field by field (thrown: {@link JobDataError}). */
  result(value: unknown): R;
  /** The kind on a worker. */
  start(env: WorkerEnv): KindSession;
}

/** A run's kind: its parent job (payload P, result R), whose units are of kind `unit`. */
export interface RunKind<P, R, UP, UR> extends JobKind<P, R> {
  readonly unit: JobKind<UP, UR>;
}

/** What a worker takes: any kind, its types erased (a JobKind of any payload fits). */
export type WorkerKind = Pick<JobKind<unknown, unknown>, "name" | "start">;

interface KindChecks<P, R> {
  /** The name jobs of this kind carry on the queue. */
  name: string;
  payload: Reader<P>;
  result: Reader<R>;
}

/** A kind that keeps nothing between jobs. */
export interface JobKindSpec<P, R> extends KindChecks<P, R> {
  handle(payload: P, ctx: JobContext): Promise<R>;
}

/** A kind that keeps something between a worker's jobs (a thread pool): made at its first job, closed when the worker stops. */
export interface StatefulJobKindSpec<P, R, S> extends KindChecks<P, R> {
  open(env: WorkerEnv): Promise<S>;
  close(state: S): Promise<void>;
  handle(payload: P, ctx: JobContext, state: S): Promise<R>;
}

/** A run's parent: its handler gets the units' results, checked by the unit's kind. */
export interface RunKindSpec<P, R, UP, UR> extends KindChecks<P, R> {
  unit: JobKind<UP, UR>;
  handle(payload: P, units: { results: UR[]; failed: readonly UnitFailure[] }): Promise<R>;
}

function checks<P, R>(spec: KindChecks<P, R>): Pick<JobKind<P, R>, "name" | "payload" | "result"> {
  return {
    name: spec.name,
    payload: (data) => spec.payload(Fields.of(data, jobDataMismatch(`${spec.name} payload`))),
    result: (value) => spec.result(Fields.of(value, jobDataMismatch(`${spec.name} result`))),
  };
}

/**
 * Declares a job kind. Its payload is checked on both sides of Redis: when a run is submitted
 * (after a JSON round trip: what the worker will read) and when a worker takes the job.
 */
export function defineJobKind<P, R>(spec: JobKindSpec<P, R>): JobKind<P, R> {
  const c = checks(spec);
  return {
    ...c,
    start: () => ({ handle: async (data, ctx) => spec.handle(c.payload(data), ctx), close: async () => {} }),
  };
}

/** {@link defineJobKind} for a kind that keeps something between a worker's jobs (its thread pool). */
export function defineJobKindWithState<P, R, S>(spec: StatefulJobKindSpec<P, R, S>): JobKind<P, R> {
  const c = checks(spec);
  return {
    ...c,
    start(env) {
      let state: Promise<S> | undefined;
      return {
        handle: async (data, ctx) => {
          const payload = c.payload(data);
          state ??= spec.open(env);
          return spec.handle(payload, ctx, await state);
        },
        close: async () => {
          if (state) await spec.close(await state);
        },
      };
    },
  };
}

/** Declares a run's kind (the parent job of a run whose units are of kind `spec.unit`). */
export function defineRunKind<P, R, UP, UR>(spec: RunKindSpec<P, R, UP, UR>): RunKind<P, R, UP, UR> {
  const c = checks(spec);
  return {
    ...c,
    unit: spec.unit,
    start: () => ({
      handle: async (data, _ctx, units) =>
        spec.handle(c.payload(data), {
          results: units.values.map((v) => spec.unit.result(v)),
          failed: units.failed,
        }),
      close: async () => {},
    }),
  };
}

/** A payload as the worker will read it (JSON, as BullMQ stores it) and checked: a submitter's mistake fails here, not on a worker. */
export function checkOutgoing<P>(kind: JobKind<P, unknown>, payload: P): unknown {
  const stored = tryParseJson(JSON.stringify(payload));
  // Nothing survives (an undefined payload): the payload check says what is missing.
  const data = stored.ok ? stored.value : undefined;
  kind.payload(data);
  return data;
}
