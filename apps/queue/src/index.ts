// convkit-queue: a queue's runs (status), failed units retried, a run's jobs removed.
import { defineCommand } from "@convkit/cli";
import { checkRedis, checkRunId, cleanRun, parseQueueUrl, queueStatus, retryRun } from "@convkit/queue";

const QUEUE_OPTION = {
  name: "queue",
  type: "string",
  metavar: "URL",
  required: true,
  description: "the queue's Redis, redis://HOST:PORT[/DB]",
} as const;

const RUN_OPTION = { name: "run-id", type: "string", metavar: "ID", description: "only this run" } as const;

export const statusCommand = defineCommand({
  name: "convkit-queue status",
  summary:
    "Per run: its kind, state (waiting-children while units run, completed, failed), units done / failed / waiting / running of the total (TSV with a header); on stderr the failed units' reasons and the jobs whose data or options are not JSON (a worker fails them; clean removes them).",
  options: [QUEUE_OPTION, RUN_OPTION],
  examples: ["convkit-queue status --queue redis://127.0.0.1:6379"],
  async run(o) {
    const a = parseQueueUrl(o.queue);
    await checkRedis(a);
    const { runs, unreadable } = await queueStatus(
      a,
      o["run-id"] === undefined ? undefined : checkRunId(o["run-id"]),
    );
    let s = "run\tkind\tstate\tunits\tdone\tfailed\twaiting\trunning\n";
    for (const r of runs)
      s += `${r.runId}\t${r.kind}\t${r.state}\t${r.units}\t${r.done}\t${r.failed}\t${r.waiting}\t${r.active}\n`;
    process.stdout.write(s);
    for (const r of runs) for (const f of r.failures) process.stderr.write(`${r.runId}: ${f}\n`);
    for (const j of unreadable) process.stderr.write(`job ${j.id}: unreadable: ${j.reason}\n`);
    return 0;
  },
});

export const retryCommand = defineCommand({
  name: "convkit-queue retry",
  summary:
    "Queue a run's failed jobs again while the run is open (its end failed, say). A run that has ended cannot take a unit back: fix the input, clean the run and submit it again.",
  options: [QUEUE_OPTION, { ...RUN_OPTION, required: true, description: "the run" }],
  async run(o) {
    const a = parseQueueUrl(o.queue);
    await checkRedis(a);
    const n = await retryRun(a, checkRunId(o["run-id"]));
    process.stderr.write(`${n} failed jobs queued again\n`);
    return 0;
  },
});

export const cleanCommand = defineCommand({
  name: "convkit-queue clean",
  summary: "Remove a run's jobs from the queue (finished or waiting; running ones are left).",
  options: [QUEUE_OPTION, { ...RUN_OPTION, required: true, description: "the run" }],
  async run(o) {
    const a = parseQueueUrl(o.queue);
    await checkRedis(a);
    const n = await cleanRun(a, checkRunId(o["run-id"]));
    process.stderr.write(`${n} jobs removed\n`);
    return 0;
  },
});
