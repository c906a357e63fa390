// @convkit/test-helpers: what the tests share (the built CLIs, ../shared, stdin routes, fixtures); private, for tests only.
export { type CliResult, runCli, runCliAsync } from "./cli.js";
export { evalFixtureArgs, rng, writeEvalFixture } from "./eval-fixture.js";
export { HAS_REDIS, startRedis, type TestRedis } from "./redis.js";
export {
  clariqDataWithDicts,
  HAS_NUMPY,
  HAS_PYTHON,
  python,
  REPO,
  SHARED,
  shared,
  tempDir,
} from "./shared.js";
export { readSpacyGoldens, type SpacyGolden, spacyModel } from "./spacy-golden.js";
export { bzip2, ENCODINGS, expectStdinLikeFile } from "./stdin.js";
