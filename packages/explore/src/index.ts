// @convkit/explore: a local, read-only web explorer of the datasets, synthetic sets, eval dicts, runs and passages.
export { type ExploreOptions, Explorer } from "./server/explorer.js";
export type { Answer } from "./server/inputs.js";
export { serveExplorer } from "./server/server.js";
export { staticPage } from "./server/static-page.js";
export { removeExplorerTempDirs } from "./server/temp-dirs.js";
export { VIEW_NAMES } from "./shared/views.js";
