// @convkit/pyregex: Python `re` patterns as JavaScript regular expressions that match the same
// spans (pyregex.ts), and their shapes (regex-shape.ts), which let a search skip what cannot match.
export {
  compilePythonFinditer,
  compilePythonRegex,
  type TranslatedPattern,
  translatePythonRegex,
} from "./pyregex.js";
export { compileInfixFinder, compileMatch, compileSuffixSearch } from "./regex-shape.js";
export { isHighSurrogate, isLowSurrogate } from "./utf16.js";
