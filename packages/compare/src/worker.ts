// Piscina worker: one randomization test per task.
import { taskWorker } from "@convkit/pool";
import { type RandomizationTask, randomizationP } from "./randomization-task.js";

export default taskWorker((task: RandomizationTask) => randomizationP(task));
