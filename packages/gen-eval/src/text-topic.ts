// A topic task with raw texts: tokenized where it runs (in a worker), then evaluated.
import { QulacVocabulary, qulacTerms } from "@convkit/text";
import { evaluateTopic, type TopicResult, type TopicTask } from "./topic-eval.js";

/** A {@link TopicTask} whose request and documents are still text (tokenizing is the costly part: it goes to the pool). */
export interface TextTopicTask extends Omit<TopicTask, "request" | "docTerms"> {
  requestText: string;
  docTexts: readonly string[];
}

/** Tokenizes with Qulac's pipeline and evaluates. */
export function evaluateTextTopic(t: TextTopicTask): TopicResult {
  const { requestText, docTexts, ...rest } = t;
  // Documents straight to term numbers: one lookup per token, none more to index them.
  const vocabulary = new QulacVocabulary();
  const ids = docTexts.map((d) => vocabulary.termIds(d));
  return evaluateTopic({
    ...rest,
    request: qulacTerms(requestText),
    docTerms: { ids, terms: vocabulary.terms },
  });
}
