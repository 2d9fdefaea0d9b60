export {
  decodeEnvelopeFast,
  decodeLineFast,
  encodeFramesLine,
  encodeQueryJson,
  isPlainQuery,
  isPlainResult,
  parseJsonFast,
} from "@ocp/types/fast";
export {
  type CgpStdioProvider,
  type SpawnCgpStdioProviderOptions,
  spawnCgpStdioProvider,
} from "./cgp-spawn.js";
export { scrubbedEnv } from "./child.js";
export {
  Correlator,
  type CorrelatorOptions,
  type RequestOptions,
  type Send,
} from "./correlator.js";
export { fromErrorEnvelope, type StdioError, type StdioErrorCode, stdioError } from "./errors.js";
export {
  EXIT_DRAIN_MS,
  HANDSHAKE_TIMEOUT_MS,
  MAX_CRASH_REASON_CHARS,
  MAX_IN_FLIGHT,
  MAX_LINE_BYTES,
  MAX_STDERR_BYTES,
  QUERY_TIMEOUT_MS,
  SHUTDOWN_GRACE_MS,
} from "./limits.js";
export { LineSplitter, type LineSplitterOptions } from "./line-splitter.js";
export { killGroup, trackGroup, untrackGroup } from "./process-groups.js";
export { type ServeStdioOptions, type StdioServer, serveStdio } from "./serve.js";
export {
  type ChildExit,
  type SpawnStdioProviderOptions,
  type StdioProvider,
  spawnStdioProvider,
} from "./spawn.js";
