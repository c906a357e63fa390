// @convkit/pickle: Python pickles in and out, without ever executing anything.

export { type DictTreeIndex, indexDictTree, readDictBranch } from "./branch-index.js";
export { DictTreeScanner, scanDictTree, UnsupportedShape, type WantedLeaves } from "./dict-tree.js";
export { MAX_DEPTH } from "./guards.js";
export { loadPickle, readPickle, readPickleFile, type UnpickleOptions, Unpickler } from "./unpickle.js";
export { MAX_INT_DIGITS } from "./unpickle-values.js";
export { type PyDict, PyFloat, PyTuple, type PyValue } from "./values.js";
export {
  dumpPickle,
  PickleWriter,
  type PickleWriterOptions,
  pickleDictTo,
  writePickleDict,
} from "./writer.js";
