/**
 * `@ocp/a2a-ocp-messaging/browser`: the message layer for a page or any
 * bundle that must stay small. Create, sign and verify messages and
 * profiles, with the root entry's names, rules and signed bytes, and no zod:
 * shapes are checked by the checks generated from the zod schemas at build
 * time (`src/generated/plain-checks.ts`), which the schemas stay the one
 * definition of. Where these differ from the root entry (a value the schema
 * would accept only by reshaping it is refused; errors name the rule, not
 * the member; plain messages only) is written in `browser-messages.ts`.
 *
 * The inbound pipeline, encryption, compression, the schemas and the hub's
 * frames are the root entry's, `./node`'s, `./schemas`' and `./internal`'s.
 */

export { isOcpError, OcpError } from "@ocp/types";
export {
  createMessage,
  decodeMessage,
  keyLookupFromProfiles,
  signedMessage,
  verifyAgentProfile,
} from "./browser-messages.js";
export { canonicalize } from "./canonical.js";
export type {
  CustomMessageType,
  KnownMessageType,
  MessageType,
  Priority,
  Recipients,
} from "./envelope.js";
export {
  MESSAGING_ERROR_CODES,
  type MessagingError,
  type MessagingErrorCode,
  type Result,
} from "./errors.js";
export type { AgentProfile } from "./identity.js";
export {
  type AgentIdentity,
  createAgentProfile,
  generateIdentity,
  identityFromSecretKey,
} from "./identity-keys.js";
export type {
  CustomMessage,
  KnownMessage,
  MessageInit,
  MessageOf,
  PayloadInit,
  PayloadOf,
  PlainMessage,
} from "./messages.js";
export { ReplayWindow } from "./replay.js";
export type { MessageDraft, SignedMessage } from "./signed-message.js";
export {
  type Ed25519Backend,
  type KeyLookup,
  signObject,
  verifyMessage,
  verifyMessageSync,
  verifyObject,
} from "./signing.js";
export { PROTOCOL, PROTOCOL_VERSION, versionsCompatible } from "./version.js";
export { BROADCAST, KNOWN_MESSAGE_TYPES } from "./wire-patterns.js";
