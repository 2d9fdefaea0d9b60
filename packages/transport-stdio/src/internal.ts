/**
 * `@ocp/transport-stdio/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export {
  decodeEnvelopeFast,
  decodeLineFast,
  encodeFramesLine,
  encodeQueryJson,
  isPlainQuery,
  isPlainResult,
  parseJsonFast,
} from "@ocp/types/fast";
export { scrubbedEnv } from "./child.js";
export { fromErrorEnvelope, stdioError } from "./errors.js";
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
export { killGroup, trackGroup, untrackGroup } from "./process-groups.js";
