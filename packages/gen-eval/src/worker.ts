// Pool worker: one topic of gen:eval.
import { taskWorker } from "@convkit/pool";
import { evaluateTextTopic } from "./text-topic.js";

/** Evaluates one topic (bad input crosses back as an InputError). */
export default taskWorker(evaluateTextTopic);
