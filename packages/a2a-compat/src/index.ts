/**
 * `@ocp/a2a-compat`: A2A compatibility (§1.3, §7, §9) with the
 * official A2A SDK — the agent card with the OCP extension, OCP operations as
 * A2A tasks served over JSON-RPC, fallback to A2A for agents that do not
 * speak OCP, §7.2 feature negotiation and §7.3 discovery at the hub.
 * The JSON-RPC server (express) is behind `@ocp/a2a-compat/server`.
 * Callers authenticate (signed requests, operator bearer tokens): the
 * client side is {@link createA2AClient} / `signingFetch`.
 */

export {
  A2AAuthenticator,
  type A2AAuthOptions,
  type AuthFailure,
  type AuthResult,
  type SecurityDeclaration,
} from "./auth.js";
export type { TaskRefusal } from "./authorize.js";
export {
  type AgentCardOptions,
  buildAgentCard,
  OCP_EXTENSION_URI,
  type OcpAgentCard,
  type OcpDeclaration,
  type ParsedAgentCard,
} from "./card.js";
export {
  type A2ACredentials,
  type CreateA2AClientOptions,
  createA2AClient,
} from "./credentials.js";
export {
  AgentDirectory,
  type DirectorySource,
  type DiscoveredAgent,
  type DiscoveryQuery,
  profileWithCard,
} from "./discovery.js";
export { A2A_ERROR_CODES, type A2AErrorCode } from "./errors.js";
export { OcpAgentExecutor, type OcpAgentExecutorOptions, type Voter } from "./executor.js";
export {
  A2AFallback,
  type A2AFallbackOptions,
  CardResolver,
  type CardResolverOptions,
  type FallbackResult,
  type ResolvedCard,
  type RouteInfo,
} from "./fallback.js";
/**
 * Every limit of `@ocp/a2a-compat`, by name (`LIMITS.NAME`): the finite defaults the
 * package enforces, each documented where it is defined (`src/limits.ts` and `src/auth-limits.ts`) and
 * listed in the README's limits table. A module namespace: no member can be
 * reassigned and none added.
 */
export * as LIMITS from "./limits-all.js";
export { FeatureNegotiator, type FeatureNegotiatorOptions, negotiatedLink } from "./negotiation.js";
export {
  type RequestClaims,
  type RequestTokenFailure,
  type RequestTokenResult,
  RequestTokenVerifier,
  type RequestTokenVerifierOptions,
  type SignRequestOptions,
  signRequestToken,
} from "./request-token.js";
/** An A2A data part carrying `value` (what the fallback sends and reads). */
export {
  A2A_TASKS,
  type A2ATaskName,
  dataPart,
  type TaskMessageType,
  type TaskOutput,
  type TaskRequest,
} from "./tasks.js";
