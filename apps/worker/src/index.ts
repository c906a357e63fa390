// convkit-worker: takes convkit's jobs from a queue (any kind it knows) and runs them here.
import { defineCommand } from "@convkit/cli";
import { genEvalRunJob, genEvalTopicsJob } from "@convkit/gen-eval";
import { checkRedis, parseQueueUrl, runQueueWorker } from "@convkit/queue";
import { segmentFileJob, segmentRunJob } from "@convkit/segment";

/** Every kind this worker takes; each opens its thread pool at its first job and keeps it. */
const KINDS = [segmentFileJob, segmentRunJob, genEvalTopicsJob, genEvalRunJob];

export const workerCommand = defineCommand({
  name: "convkit-worker",
  summary:
    "Take convkit jobs (segment and gen:eval units and runs) from a Redis queue and run them on this machine's worker threads, until stopped (SIGTERM finishes the job in hand) or, with --exit-when-idle, until the queue is empty. Start one per machine; the inputs and output folders must be on a filesystem every machine sees.",
  options: [
    {
      name: "queue",
      type: "string",
      metavar: "URL",
      required: true,
      description: "the queue's Redis, redis://HOST:PORT[/DB]",
    },
    {
      name: "threads",
      type: "integer",
      min: 1,
      metavar: "N",
      default: 1,
      description: "worker threads for the CPU work (the main thread only talks to Redis)",
    },
    {
      name: "exit-when-idle",
      type: "boolean",
      description: "stop once nothing is waiting, running or delayed",
    },
    {
      name: "stall-seconds",
      type: "number",
      min: 1,
      metavar: "S",
      default: 30,
      description:
        "a job whose worker has not renewed its lock for this long (a dead machine) is taken again by another worker",
    },
  ],
  ownsSignals: true,
  examples: [
    "convkit-worker --queue redis://10.0.0.5:6379 --threads 8",
    "convkit-worker --queue redis://127.0.0.1:6379/2 --exit-when-idle",
  ],
  async run(o) {
    const address = parseQueueUrl(o.queue);
    await checkRedis(address, {
      wait: true,
      onWaiting: (why) =>
        process.stderr.write(`convkit-worker: waiting for Redis at ${o.queue}${why ? ` (${why})` : ""}\n`),
    });
    let stop: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const onTerm = () => {
      process.stderr.write("convkit-worker: stopping after the job in hand\n");
      stop();
    };
    process.once("SIGTERM", onTerm);
    process.once("SIGINT", onTerm);
    const r = await runQueueWorker(address, KINDS, {
      threads: o.threads,
      exitWhenIdle: o["exit-when-idle"],
      stallSeconds: o["stall-seconds"],
      log: (line) => process.stderr.write(`convkit-worker: ${line}\n`),
      say: (line) => process.stderr.write(`${line}\n`),
      stop: stopped,
    });
    process.stderr.write(`convkit-worker: ${r.jobs} jobs done\n`);
    return 0;
  },
});
