// @convkit/test-helpers: what the tests share (the built CLIs, ../shared, stdin routes, fixtures, requires() for what a test needs beyond Node and npm); private, for tests only.
export { type CliResult, cliBin, runCli, runCliAsync, runCliToFd, withCliNode } from "./cli.js";
export { type SmallDisk, smallDisk } from "./disk.js";
export { evalFixtureArgs, rng, writeEvalFixture } from "./eval-fixture.js";
export { bytesConcatenated, cpuMs } from "./linear.js";
export {
  expectParquetEqualsJsonl,
  type ParquetReadCheck,
  PYTHON_PARQUET_READERS,
  type PythonParquetColumn,
  type PythonParquetEvent,
  type PythonParquetReader,
  type PythonParquetTable,
  parseJsonExact,
  readParquetInPython,
  streamParquetInPython,
} from "./parquet-python.js";
export {
  pythonSnippets,
  runReadmePythonSnippets,
  type SnippetFile,
  type SnippetRun,
} from "./python-snippets.js";
export { startRedis, type TestRedis } from "./redis.js";
export {
  chromiumPath,
  OTHER_NODE_LINES,
  type OtherNodeLine,
  otherNode,
  REQUIREMENTS,
  type Requirement,
  requires,
  scipyPython,
} from "./requires.js";
export { clariqDataWithDicts, python, REPO, readGolden, SHARED, shared, tempDir } from "./shared.js";
export { readSpacyGoldens, type SpacyGolden, spacyModel } from "./spacy-golden.js";
export { codePoint, codePointSpans } from "./spans.js";
export { bzip2, ENCODINGS, expectStdinLikeFile } from "./stdin.js";
