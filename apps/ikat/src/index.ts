// convkit-ikat: what iKAT participants run before every submission, one file per subcommand.
export { buildDbCommand } from "./build-db.js";
export { ikatConvertCommand } from "./convert.js";
export { evalCitationsCommand, evalPassagesCommand, evalPtkbCommand } from "./evaluate.js";
export { flattenCommand } from "./flatten.js";
export { validateCommand } from "./validate.js";
