import { type ErrorFactory, errorFactory, type OcpError } from "@ocp/types";

/**
 * Every code an {@link OcpError} raised by this package can carry, with the
 * stage that raises it. The package README lists the same table.
 */
export const MESSAGING_ERROR_CODES = {
  message_too_large: "inbound size cap: the raw message exceeds maxMessageBytes",
  invalid_json: "inbound JSON: the message is not JSON",
  duplicate_key:
    "inbound JSON: an object has two members of one name (I-JSON, RFC 7493 §2.3, forbids it)",
  message_too_deep: "inbound JSON: arrays/objects nested deeper than maxJsonDepth",
  invalid_message: "inbound schema / builder: the value is not a valid a2a+ocp message",
  incompatible_version: "inbound schema: the message's semver major differs from ours",
  canonicalization_failed:
    "signing: the value has no RFC 8785 form (lone surrogate, non-finite number, too deep)",
  signature_missing: "inbound signature: the message is unsigned and signatures are required",
  unknown_sender: "inbound signature: the key lookup has no public key for `from`",
  signature_invalid: "inbound signature: the signature does not verify over the canonical form",
  signature_scheme_mismatch:
    "inbound signature: the signature verifies only over §8.2's JSON.stringify of seven fields, not our scheme",
  message_expired: "inbound freshness: timestamp + ttl (+ skew) is in the past",
  message_from_future: "inbound freshness: timestamp is further ahead than the clock-skew bound",
  replay_detected: "inbound replay: a message with this id was already accepted inside the window",
  replay_window_saturated:
    "inbound replay: the window overflowed and can no longer prove this id unseen",
  rate_limited: "rate limit: the sender exhausted a token bucket (details name it and the wait)",
  decompression_failed: "compression: compressedPayload is not valid base64 gzip/brotli JSON",
  decompressed_too_large: "compression: the payload inflates past maxDecompressedBytes",
  not_a_recipient: "encryption: recipientKeys holds no key for this agent",
  decryption_failed: "encryption: a wrapped key or the ciphertext fails authentication",
  sealed_envelope_invalid:
    "sealing: an encrypted message lacks ocpSealed, or its recipients are not exactly the holders of a wrapped key",
  sealed_recipient_not_allowed:
    "sealing: a declared or addressed recipient may not see what the sealed message declares it carries",
  invalid_key: "identity: a key has the wrong length, encoding or type",
  invalid_profile: "identity: an agent profile is malformed or its self-signature fails",
  invalid_option: "configuration: an option is out of range (limits are finite and positive)",
  sender_mismatch: "hub: the message's `from` is not the agent that authenticated the connection",
  authorship_invalid:
    "authorship: a node's or edge's ocpAuthorship is malformed, by a signer with no known key, or does not verify",
  store_failed: "audit: the audit log file cannot be opened or holds no audit log",
  not_author:
    "authorship: a node or edge is signed (or sent) by an agent that is neither its createdBy nor an editor it lists",
} as const;

/** A stable code of an error raised by this package. */
export type MessagingErrorCode = keyof typeof MESSAGING_ERROR_CODES;

/** The error class of this package: an {@link OcpError} with a {@link MessagingErrorCode}. */
export type MessagingError = OcpError<MessagingErrorCode>;

/** Creates a {@link MessagingError}: only this package's codes compile. */
export const messagingError: ErrorFactory<MessagingErrorCode> = errorFactory<MessagingErrorCode>();

/** A result that is a value or a typed error; decoding never throws. */
export type Result<T, C extends MessagingErrorCode = MessagingErrorCode> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: OcpError<C> };

/** Wraps a value as a successful {@link Result}. */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** Wraps an error as a failed {@link Result}. */
export function fail<C extends MessagingErrorCode>(
  code: C,
  message: string,
  options: { cause?: unknown; details?: Record<string, unknown> } = {},
): { readonly ok: false; readonly error: OcpError<C> } {
  return { ok: false, error: messagingError(code, message, options) };
}
