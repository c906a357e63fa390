// @convkit/io: where bytes come from and go to, and the typed errors every reader throws.

export { ByteBuilder } from "./bytes.js";
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DownloadError,
  type DownloadTimeouts,
  downloadFile,
} from "./download.js";
export { anyErrorToData, type ErrorData, errorFromData, errorToData } from "./error-codec.js";
export {
  ConvkitError,
  describeFound,
  InputError,
  type InputLocation,
  isParquetHead,
  messageOf,
  OutputError,
  throwIfParquet,
  UsageError,
} from "./errors.js";
export {
  capBytes,
  DEFAULT_INPUT_LIMITS,
  type InputLimits,
  inputLimits,
  inputTooLarge,
  lineTooLong,
  setInputLimits,
} from "./limits.js";
export {
  decodeUtf8,
  type LineBatch,
  readLineBatches,
  readLineUnits,
  readText,
} from "./lines.js";
export {
  type ByteSink,
  checkOutputDir,
  checkOutputPath,
  isDeadTemp,
  registerTemp,
  removePendingTempFiles,
  removeStaleTemps,
  type WriteOptions,
  withOutputDir,
  withTempDir,
  writeAtomic,
  writeJsonl,
  writeStdout,
} from "./sink.js";
export {
  type ByteSource,
  type Compression,
  decompressed,
  findInFolder,
  looksLikeTar,
  openInput,
  openRaw,
  peek,
  prefetch,
  readAll,
  releaseStdin,
  sniffCompression,
  splitParts,
} from "./source.js";
export {
  assertSafeMemberName,
  extractTar,
  openPayload,
  type TarEntry,
  tarEntries,
  tarGzFile,
} from "./tar.js";
export {
  type DelimitedOptions,
  expectFields,
  formatDelimited,
  parseDelimited,
  type Row,
  splitQuoted,
  writeDelimited,
} from "./tsv.js";
