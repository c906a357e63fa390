// @convkit/json: the one place JSON text becomes values (located errors, a depth guard) and values are checked field by field.

export { describeValue, Fields, inputMismatch, isJsonObject, type Mismatch } from "./fields.js";
export { checkJsonDepth, JsonDepthScanner, MAX_JSON_DEPTH } from "./json-depth.js";
export { type JsonParsed, parseJsonText, tryParseJson } from "./json-text.js";
