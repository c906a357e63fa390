// convkit-worker: takes convkit's jobs from a queue (any kind it knows) and runs them here.
import { defineCommand } from "@convkit/cli";
import {
  discardQueuedEval,
  evaluateQueuedTopics,
  finishQueuedEval,
  GEN_EVAL_QUEUE_KINDS,
  type GenEvalPool,
  type GenEvalUnitData,
  type GenEvalUnitResult,
  openGenEvalPool,
  type QueuedGenEvalOptions,
} from "@convkit/gen-eval";
import { checkRedis, type JobHandler, parseQueueUrl, runQueueWorker } from "@convkit/queue";
import {
  finishQueuedSegmentation,
  type ManifestEntry,
  openSegmentationPool,
  SEGMENT_QUEUE_KINDS,
  type SegmentPool,
  type SegmentUnitData,
  segmentQueuedInput,
} from "@convkit/segment";

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
    // One pool per job family, made when its first job comes, kept for the next ones.
    let pool: SegmentPool | undefined;
    const segmentPool = async () => {
      pool ??= await openSegmentationPool(o.threads);
      return pool;
    };
    let evalPool: GenEvalPool | undefined;
    const genEvalPool = async () => {
      evalPool ??= await openGenEvalPool(o.threads);
      return evalPool;
    };
    const handlers: Record<string, JobHandler> = {
      [SEGMENT_QUEUE_KINDS.unit]: async (data, ctx) =>
        segmentQueuedInput(data as unknown as SegmentUnitData, await segmentPool(), (docs, bytes) =>
          ctx.progress(docs, bytes),
        ),
      [SEGMENT_QUEUE_KINDS.run]: (data, ctx) =>
        finishQueuedSegmentation(String(data.out), ctx.unitResults as ManifestEntry[]),
      [GEN_EVAL_QUEUE_KINDS.unit]: async (data, ctx) =>
        evaluateQueuedTopics(data as unknown as GenEvalUnitData, await genEvalPool(), (topics) =>
          ctx.progress(topics, 0),
        ),
      // A dict with topics missing is not the dict: with a failed unit, nothing is written.
      [GEN_EVAL_QUEUE_KINDS.run]: async (data, ctx) =>
        ctx.failed.length
          ? discardQueuedEval(String(data.spoolDir))
          : finishQueuedEval(
              data.options as QueuedGenEvalOptions,
              String(data.spoolDir),
              data.unitSpools as string[],
              ctx.unitResults as GenEvalUnitResult[],
            ),
    };
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
    try {
      const r = await runQueueWorker(address, handlers, {
        exitWhenIdle: o["exit-when-idle"],
        stallSeconds: o["stall-seconds"],
        log: (line) => process.stderr.write(`convkit-worker: ${line}\n`),
        stop: stopped,
      });
      process.stderr.write(`convkit-worker: ${r.jobs} jobs done\n`);
    } finally {
      await pool?.destroy();
      await evalPool?.destroy();
    }
    return 0;
  },
});
