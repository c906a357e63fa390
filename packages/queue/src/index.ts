// @convkit/queue: convkit's jobs on many machines, through BullMQ on Redis.
export { checkRedis, parseQueueUrl, type QueueAddress } from "./connection.js";
export {
  awaitRun,
  checkRunId,
  deriveRunId,
  type RunPlan,
  type RunProgress,
  type RunResult,
  type RunUnit,
  runExitCode,
  submitAndAwait,
  submitRun,
  type UnitFailure,
} from "./run.js";
export { cleanRun, queueStatus, type RunStatus, retryRun } from "./status.js";
export { type JobContext, type JobHandler, type QueueWorkerOptions, runQueueWorker } from "./worker.js";
