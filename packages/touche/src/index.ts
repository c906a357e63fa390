// @convkit/touche: Touché 2021 Task 1 retrieval over args.me (streamed twice) and its evaluation.
export { evaluateTouche, type ToucheEvaluation } from "./evaluate.js";
export {
  argumentText,
  corpusFiles,
  type QueryTermStats,
  retrieveTouche,
  scoreDocument,
  type ToucheModel,
  toucheTerms,
} from "./retrieve.js";
