// @convkit/queue: convkit's jobs on many machines, through BullMQ on Redis (loaded on first use).
export { type QueuedRunDisplay, type RunProgressLine, type RunReport, runOnQueue } from "./command.js";
export { checkRedis, parseQueueUrl, type QueueAddress } from "./connection.js";
export {
  defineJobKind,
  defineJobKindWithState,
  defineRunKind,
  type JobContext,
  JobDataError,
  type JobKind,
  type JobKindSpec,
  type Reader,
  type RunKind,
  type RunKindSpec,
  type StatefulJobKindSpec,
  type UnitFailure,
  type WorkerEnv,
  type WorkerKind,
} from "./kind.js";
export {
  awaitRun,
  checkRunId,
  deriveRunId,
  type RunPlan,
  type RunProgress,
  type RunResult,
  runExitCode,
  submitAndAwait,
  submitRun,
} from "./run.js";
export { cleanRun, queueStatus, type RunStatus, retryRun, type UnreadableJob } from "./status.js";
export { PROGRESS_MS, type ProgressValue, throttleProgress } from "./throttle.js";
export { type QueueWorkerOptions, runQueueWorker } from "./worker.js";
