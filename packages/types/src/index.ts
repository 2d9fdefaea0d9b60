/**
 * `@ocp/types`: the Open Context Protocol's shapes (zod schemas with their
 * inferred types), codec, versioning, rule table and errors. The plumbing
 * the transports share (deadlines, JSON text scanning) is at `./internal`,
 * which semver does not cover.
 */

export {
  type Capabilities,
  CapabilitiesSchema,
  type DataFlow,
  DataFlowSchema,
  type ProviderInfo,
  ProviderInfoSchema,
  type QueryCapability,
  QueryCapabilitySchema,
  StrictProviderInfoSchema,
} from "./capability.js";
export {
  type DecodeResult,
  decodeEnvelope,
  decodeLine,
  describeIssues,
  encodeJson,
  encodeLine,
  type Json,
  toWire,
} from "./codec.js";
export {
  ENVELOPE_TYPES,
  type Envelope,
  type EnvelopeInit,
  EnvelopeSchema,
  type EnvelopeType,
  type ErrorEnvelope,
  ErrorEnvelopeSchema,
  type FramesEnvelope,
  FramesEnvelopeSchema,
  type Handshake,
  type HandshakeAck,
  HandshakeAckSchema,
  HandshakeSchema,
  type QueryEnvelope,
  QueryEnvelopeSchema,
  type ShutdownEnvelope,
  ShutdownSchema,
  StrictEnvelopeSchema,
} from "./envelope.js";
export {
  type ErrorFactory,
  errorFactory,
  foreignError,
  fromErrorEnvelope,
  isOcpError,
  OcpError,
  type OcpErrorCodeParameter,
  type OcpErrorOptions,
  readWireErrorCode,
  type TypesErrorCode,
  WIRE_ERROR_CODES,
  type WireErrorCode,
  wireError,
} from "./errors.js";
export {
  EXTENSIONS,
  EXTENSIONS_ENV,
  EXTENSIONS_HEADER,
  type Extension,
  forPeer,
  readExtensions,
} from "./extensions.js";
export {
  CGP_PROTOCOL_VERSION,
  CGP_VERSION_PATTERN,
  familyOfVersion,
  OCP_PROTOCOL_VERSION,
  type ProtocolFamily,
  versionOfFamily,
} from "./family.js";
export {
  type ContextFrame,
  type ContextFrameInit,
  ContextFrameSchema,
  FRAME_KINDS,
  type FrameEmbedding,
  FrameEmbeddingSchema,
  type FrameKind,
  FrameKindSchema,
  hasValidScore,
  type Provenance,
  ProvenanceSchema,
  type Relation,
  RelationSchema,
  StrictContextFrameSchema,
} from "./frame.js";
export { ENVELOPE_SCHEMA_ID, envelopeJsonSchema } from "./json-schema.js";
export { positiveLimit } from "./limits.js";
export { VersionStringSchema } from "./primitives.js";
export type { ContextProvider, QueryOptions } from "./provider.js";
export {
  type ContextQuery,
  type ContextQueryInit,
  type ContextQueryResult,
  type ContextQueryResultInit,
  ContextQueryResultSchema,
  ContextQuerySchema,
  type CostCarrier,
  respectsBudget,
  respectsFrameLimit,
  StrictContextQueryResultSchema,
  StrictContextQuerySchema,
  totalTokenCost,
} from "./query.js";
export {
  COST_TOLERANCE_RATIO,
  COST_TOLERANCE_SLACK,
  type HostAction,
  RULES,
  type Rule,
  type RuleId,
  type RuleSource,
  renderRuleTable,
  type SuiteVerdict,
  understatesCost,
} from "./rules.js";
export { type RequirementId, type Violation, validateFrame, validateResult } from "./validate.js";
export {
  isVersionString,
  PROTOCOL_VERSION,
  protocolFamily,
  VERSION_PATTERN,
  versionsCompatible,
} from "./version.js";
