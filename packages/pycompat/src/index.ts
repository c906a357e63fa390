// @convkit/pycompat: numerics of Python and numpy reproduced bit for bit (sort order of ties, exact means, formatting).
export { numpyArgsort } from "./argsort.js";
export { formatFixed } from "./format.js";
export { pythonMean, ratioToDouble } from "./mean.js";
export { numpyMean, numpyStd, numpySum, numpyVar } from "./numpy-sum.js";
export {
  formatPyFloat,
  formatPyJsonFloat,
  isPySpace,
  PY_STRING_ESCAPES,
  pyStrip,
  pyStripStart,
  pythonJsonString,
} from "./pytext.js";
