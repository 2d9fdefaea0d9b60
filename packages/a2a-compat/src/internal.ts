/**
 * `@ocp/a2a-compat/internal`: what the other packages of the OCP monorepo
 * share with this one and a user does not write against (wire plumbing,
 * helpers, the individual limit constants). Not covered by semver: any
 * release may change or remove a name here. Use the root entry.
 *
 * @packageDocumentation
 * @internal
 */

export {
  A2ACaller,
  BEARER_TOKEN_SCHEME,
  callerIdOf,
  SIGNED_REQUEST_SCHEME,
  securityDeclarationOf,
  securityOf,
  UNAUTHENTICATED_ERROR_CODE,
} from "./auth.js";
export * from "./auth-limits.js";
export { ANONYMOUS_TASKS, refusalOf } from "./authorize.js";
export {
  AgentCardSchema,
  cardJson,
  declaredFeatures,
  OCP_PROTOCOLS,
  OcpDeclarationSchema,
  ocpDeclarationOf,
  protocolsOf,
  skillsFor,
} from "./card.js";
export { bearerFetch, clientFactoryFor, signingFetch } from "./credentials.js";
export { CARD_PROFILE_FIELD } from "./discovery.js";
export { a2aError } from "./errors.js";
export * from "./limits.js";
export { FeatureNotConfirmed, featureOf } from "./negotiation.js";
export {
  bodyHash,
  isRequestToken,
  REQUEST_TOKEN_TYPE,
  RequestClaimsSchema,
} from "./request-token.js";
export {
  A2A_TASK_NAMES,
  AcceptedOutputSchema,
  DATA_MEDIA_TYPE,
  isTask,
  parseTaskRequest,
  replyValues,
  TASK_FEATURES,
  TASK_MESSAGE_TYPES,
  TASK_OUTPUT_SCHEMAS,
  TaskRequestSchema,
  taskRequestMessage,
} from "./tasks.js";
