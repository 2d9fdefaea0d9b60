export {
  type CgpStdioProvider,
  type SpawnCgpStdioProviderOptions,
  spawnCgpStdioProvider,
} from "./cgp-spawn.js";
export type { ChildCommand } from "./child.js";
export {
  Correlator,
  type CorrelatorOptions,
  type RequestOptions,
  type Send,
} from "./correlator.js";
export type { StdioError, StdioErrorCode } from "./errors.js";
/**
 * Every limit of `@ocp/transport-stdio`, by name (`LIMITS.NAME`): the finite defaults the
 * package enforces, each documented where it is defined (`src/limits.ts`) and
 * listed in the README's limits table. A module namespace: no member can be
 * reassigned and none added.
 */
export * as LIMITS from "./limits.js";
export { LineSplitter, type LineSplitterOptions } from "./line-splitter.js";
export { type ServeStdioOptions, type StdioServer, serveStdio } from "./serve.js";
export {
  type ChildExit,
  type SpawnStdioProviderOptions,
  type StdioProvider,
  spawnStdioProvider,
} from "./spawn.js";
