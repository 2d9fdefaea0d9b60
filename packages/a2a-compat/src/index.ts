/**
 * `@ocp/a2a-compat`: A2A compatibility (§1.3, §7, §9) with the
 * official A2A SDK — the agent card with the OCP extension, OCP operations as
 * A2A tasks served over JSON-RPC, fallback to A2A for agents that do not
 * speak OCP, §7.2 feature negotiation and §7.3 discovery at the hub.
 * The JSON-RPC server (express) is behind `@ocp/a2a-compat/server`.
 * Callers authenticate (signed requests, operator bearer tokens): the
 * client side is {@link createA2AClient} / {@link signingFetch}.
 */
export {
  A2AAuthenticator,
  type A2AAuthOptions,
  A2ACaller,
  type AuthFailure,
  type AuthResult,
  BEARER_TOKEN_SCHEME,
  callerIdOf,
  type SecurityDeclaration,
  SIGNED_REQUEST_SCHEME,
  securityDeclarationOf,
  securityOf,
  UNAUTHENTICATED_ERROR_CODE,
} from "./auth.js";
export * from "./auth-limits.js";
export { ANONYMOUS_TASKS, refusalOf, type TaskRefusal } from "./authorize.js";
export {
  type AgentCardOptions,
  AgentCardSchema,
  buildAgentCard,
  cardJson,
  declaredFeatures,
  OCP_EXTENSION_URI,
  OCP_PROTOCOLS,
  type OcpAgentCard,
  type OcpDeclaration,
  OcpDeclarationSchema,
  ocpDeclarationOf,
  type ParsedAgentCard,
  protocolsOf,
  skillsFor,
} from "./card.js";
export {
  type A2ACredentials,
  bearerFetch,
  type CreateA2AClientOptions,
  clientFactoryFor,
  createA2AClient,
  signingFetch,
} from "./credentials.js";
export {
  AgentDirectory,
  CARD_PROFILE_FIELD,
  type DirectorySource,
  type DiscoveredAgent,
  type DiscoveryQuery,
  profileWithCard,
} from "./discovery.js";
export { A2A_ERROR_CODES, type A2AErrorCode, a2aError } from "./errors.js";
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
export * from "./limits.js";
export {
  FeatureNegotiator,
  type FeatureNegotiatorOptions,
  FeatureNotConfirmed,
  featureOf,
  negotiatedLink,
} from "./negotiation.js";
export {
  bodyHash,
  isRequestToken,
  REQUEST_TOKEN_TYPE,
  type RequestClaims,
  RequestClaimsSchema,
  type RequestTokenFailure,
  type RequestTokenResult,
  RequestTokenVerifier,
  type RequestTokenVerifierOptions,
  type SignRequestOptions,
  signRequestToken,
} from "./request-token.js";
export {
  A2A_TASK_NAMES,
  A2A_TASKS,
  type A2ATaskName,
  AcceptedOutputSchema,
  DATA_MEDIA_TYPE,
  dataPart,
  isTask,
  parseTaskRequest,
  replyValues,
  TASK_FEATURES,
  TASK_MESSAGE_TYPES,
  TASK_OUTPUT_SCHEMAS,
  type TaskMessageType,
  type TaskOutput,
  type TaskRequest,
  TaskRequestSchema,
  taskRequestMessage,
} from "./tasks.js";
