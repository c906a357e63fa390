// The command side of a run on the queue, shared by every `--queue` command: submit the planned
// run, watch it with one progress line, report the failed units and the last line, exit as a
// local run would. What is shown goes through the app's report (packages never print).
import type { QueueAddress } from "./connection.js";
import { type RunPlan, type RunResult, runExitCode, submitAndAwait } from "./run.js";

/** A progress line as {@link RunReport.progress} starts it. */
export interface RunProgressLine {
  tick(n: number, bytes?: number): void;
  note(text: string): void;
  done(): void;
}

/** Where a run's lines go: the apps pass @convkit/cli's `stderrReport` (stderr and its progress line). */
export interface RunReport {
  /** One line for the user (no line break). */
  line(text: string): void;
  /** A progress line: `label` counting `items`. */
  progress(label: string, items: string): RunProgressLine;
}

/** How a command shows its run. */
export interface QueuedRunDisplay<R> {
  /** Where its lines go. */
  report: RunReport;
  /** With --detach: submit and return. */
  detach: boolean;
  /** The progress line's label (`segment`: shown as `segment RUN-ID`). */
  label: string;
  /** What the progress counts (`docs`, `topics`). */
  items: string;
  /** What the units are, in the progress note (`files 3/8`). */
  units: string;
  /** The units for a user, in the line a detached run prints (`8 input files`). */
  what: string;
  /** The last line: the run's result, seconds since it was submitted. */
  summary(r: RunResult<R>, secs: number): string;
}

/**
 * Submits the run (unless it is on the queue already) and, unless detached, waits for its end;
 * failed units' reasons are reported, one line each, then `summary`. Returns the exit code: 0,
 * 2 when only bad input failed, 1 for any other failure.
 */
export async function runOnQueue<P, R, UP, UR>(
  address: QueueAddress,
  plan: RunPlan<P, R, UP, UR>,
  o: QueuedRunDisplay<R>,
): Promise<number> {
  const t0 = performance.now();
  const progress = o.report.progress(`${o.label} ${plan.runId}`, o.items);
  let shown = { items: 0, bytes: 0 };
  const r = await submitAndAwait(address, plan, {
    detach: o.detach,
    what: o.what,
    say: (line) => o.report.line(line),
    onProgress: (p) => {
      progress.tick(p.items - shown.items, p.bytes - shown.bytes);
      progress.note(`${o.units} ${p.done}/${p.total}, failed ${p.failed}, workers ${p.workers}`);
      shown = { items: p.items, bytes: p.bytes };
    },
  });
  if (!r) return 0;
  progress.done();
  for (const f of r.failed) o.report.line(f.reason);
  o.report.line(o.summary(r, (performance.now() - t0) / 1000));
  return runExitCode(r);
}
