// @convkit/pool: the worker pool every parallel job uses (see pool.ts).
export { inOrder, openTaskPool, type TaskPool, type TaskPoolOptions, taskWorker } from "./pool.js";
