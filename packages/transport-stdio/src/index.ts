export {
  type CgpStdioProvider,
  type SpawnCgpStdioProviderOptions,
  spawnCgpStdioProvider,
} from "./cgp-spawn.js";
export {
  Correlator,
  type CorrelatorOptions,
  type RequestOptions,
  type Send,
} from "./correlator.js";
export type { StdioError, StdioErrorCode } from "./errors.js";
export { LIMITS } from "./limits-object.js";
export { LineSplitter, type LineSplitterOptions } from "./line-splitter.js";
export { type ServeStdioOptions, type StdioServer, serveStdio } from "./serve.js";
export {
  type ChildExit,
  type SpawnStdioProviderOptions,
  type StdioProvider,
  spawnStdioProvider,
} from "./spawn.js";
