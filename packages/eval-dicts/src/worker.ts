// Piscina worker: one topic of gen:eval.
import { evaluateTextTopic, type TextTopicTask } from "./text-topic.js";
import type { TopicResult } from "./topic-eval.js";

/** Evaluates one topic. */
export default function run(task: TextTopicTask): TopicResult {
  return evaluateTextTopic(task);
}
