// @convkit/spacy: a spaCy 3.x pipeline folder's tokenizer and statistical sentence recognizer
// (`senter`) run in TypeScript, with spaCy's tokens and sentence starts, no Python.
export type { SpecialToken, TokenizerRules } from "./folder.js";
export {
  checkPipelineFolder,
  LoneSurrogateError,
  type PipelineOptions,
  type SpacyDoc,
  SpacyPipeline,
  spacyPipeline,
} from "./pipeline.js";
export type { TokenizedText } from "./tokenizer.js";
