// @convkit/explore: a local, read-only web explorer of the datasets, synthetic sets, eval dicts, runs and passages.
export { type Answer, type ExploreOptions, Explorer } from "./server/explorer.js";
export { serveExplorer } from "./server/server.js";
export { staticPage } from "./server/static-page.js";
export { removeExplorerTempDirs } from "./server/temp-dirs.js";
export { VIEW_NAMES } from "./shared/views.js";
