/**
 * `@ocp/types/cgp`: the Context Graph Protocol (`contextgraph/1.0-draft`)
 * family — schemas at the interop and the authoring level, the decoder that
 * follows U1–U4, the byte rules (B3, F5, D1), the vocabularies (C5, X1/X2),
 * the rule table and the one rulebook for frames and answers.
 */
export {
  CGP_PROTOCOL_VERSION,
  CGP_VERSION_PATTERN,
  familyOfVersion,
  type ProtocolFamily,
} from "../family.js";
export {
  budgetFromModelTokens,
  CGP_HOST_SAFETY_FACTOR,
  canonicalTokenCost,
  sha256,
  sha256Digest,
  utf8ByteLength,
  utf8Encode,
} from "./bytes.js";
export {
  type CgpDecoded,
  type CgpDecodeFailure,
  type CgpDecodeResult,
  type CgpUnknownEnvelope,
  decodeCgpEnvelope,
  decodeCgpLine,
  encodeCgpLine,
  isOpaqueFrame,
  isUnknownEnvelope,
  toCgpWire,
} from "./decode.js";
export * from "./envelope.js";
export {
  CGP_TIMESTAMP_PATTERN,
  DIGEST_PATTERN,
  EMBEDDINGS_FINGERPRINT_PATTERN,
  fingerprintDimensions,
  isCgpTimestamp,
  isWellFormedDigest,
} from "./formats.js";
export * from "./frame.js";
export {
  type CgpAckLike,
  type CgpHandshakeRule,
  cgpHandshakeViolations,
  embeddingFits,
  type HandshakeViolation,
} from "./handshake.js";
export { canonicalDigest, canonicalJson } from "./jcs.js";
export { CGP_ENVELOPE_SCHEMA_ID, cgpEnvelopeJsonSchema } from "./json-schema.js";
export * from "./payloads.js";
export {
  type CgpReplyEnvelope,
  type CgpReplyErrorFactory,
  cgpRemoteError,
  checkCgpAck,
} from "./reply.js";
export { CGP_RULES, type CgpRuleId, cgpRuleOf, rulesFor } from "./rules.js";
export {
  type CgpFilterViolation,
  cgpAsOfViolations,
  cgpKindViolations,
  compareCgpTimestamps,
} from "./temporal.js";
export { cgpVersionsCompatible, isCgpVersionString } from "./version.js";
export {
  type CgpAnswerBounds,
  type CgpFrameLike,
  type CgpViolationRule,
  cgpAnswerViolations,
  cgpFrameViolations,
  cgpQueryViolations,
  type Violation,
} from "./violations.js";
export * from "./vocabulary.js";
