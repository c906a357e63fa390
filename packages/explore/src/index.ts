// @convkit/explore: a local, read-only web explorer of the datasets, synthetic sets, eval dicts, runs and passages.
export { type Answer, type ExploreOptions, Explorer } from "./explorer.js";
export { serveExplorer } from "./server.js";
export { staticPage } from "./static-page.js";
export { removeExplorerTempDirs } from "./temp-dirs.js";
export { VIEW_NAMES } from "./views.js";
