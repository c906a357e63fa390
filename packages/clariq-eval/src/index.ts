// @convkit/clariq-eval: clariq_eval_tool.py's three tasks, number for number, as pure functions and one entry point.
export { evaluateClarificationNeed, weightedPrf } from "./clarification-need.js";
export { evaluateDocumentRelevance, topQuestions } from "./document-relevance.js";
export {
  type ClariqEvalOptions,
  type ClariqEvalResult,
  clariqScorer,
  type Performance,
  runClariqEval,
} from "./evaluate.js";
export { evaluateQuestionRelevance, RECALL_CUTOFFS } from "./question-relevance.js";
export { pandasText, type RankedLine, readNeedRun, readRankedRun } from "./run-table.js";
