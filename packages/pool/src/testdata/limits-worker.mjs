// A pool worker for pool.test.ts: answers every task with the thread's V8 heap limits.
import { resourceLimits } from "node:worker_threads";

export default () => resourceLimits;
