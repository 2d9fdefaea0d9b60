import { fromBase64Exact } from "./base64.js";
import { inCanonicalOrder } from "./canonical.js";
import type { MessageType } from "./envelope.js";
import { fail, messagingError, ok, type Result } from "./errors.js";
import {
  checkAgentProfile,
  checkCustomMessage,
  KNOWN_MESSAGE_CHECKS,
} from "./generated/plain-checks.js";
import type { AgentProfile } from "./identity.js";
import { type AgentIdentity, keyLookupVerifiedBy } from "./identity-keys.js";
import { messageCandidate } from "./message-candidate.js";
import type {
  KnownMessage,
  MessageInit,
  MessageOf,
  PlainMessage,
  RuntimeMessageInit,
} from "./messages.js";
import type { MessageDraft, SignedMessage } from "./signed-message.js";
import {
  defaultEd25519,
  ED25519_PUBLIC_KEY_BYTES,
  type Ed25519Backend,
  type KeyLookup,
  signObject,
  verifyObject,
} from "./signing.js";
import { PROTOCOL_VERSION, semverMajor, versionsCompatible } from "./version.js";
import { isCustomMessageType } from "./wire-patterns.js";

/**
 * The builders and checks of the browser entry (`@ocp/a2a-ocp-messaging/browser`):
 * the root entry's `createMessage`, `decodeMessage`, `verifyAgentProfile`,
 * `keyLookupFromProfiles` and `signedMessage`, checked by the checks
 * generated from the zod schemas (`src/generated/plain-checks.ts`) instead of
 * the schemas, so a bundle of them loads no zod.
 *
 * A generated check accepts a value exactly when the schema accepts it and
 * gives it back unchanged: plain objects and arrays in the schema's form.
 * What the schema would accept only by reshaping it (an own `__proto__`
 * member, which the schema drops; a class instance; an object from another
 * realm) is refused here. An error names the rule that failed, not the
 * member (use the root entry for the schema's issue list), and encrypted or
 * compressed messages (§8.4, §12.2) are the root entry's and `./node`'s.
 */

/** Whether `value` is a plain message in the form its type's schema gives back. */
function plainMessageForm(value: unknown): value is PlainMessage {
  if (typeof value !== "object" || value === null) return false;
  const type: unknown = Reflect.get(value, "type");
  if (typeof type !== "string") return false;
  if (isCustomMessageType(type)) return checkCustomMessage(value);
  const check = KNOWN_MESSAGE_CHECKS.get(type);
  return check?.(value) === true;
}

/** Why {@link plainMessageForm} refused `value`, in one line. */
function refusal(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const type: unknown = Reflect.get(value, "type");
  if (Reflect.get(value, "encrypted") === true || Reflect.get(value, "compression") !== undefined) {
    return "an encrypted or compressed message (decode it with the root entry)";
  }
  if (typeof type !== "string" || (!isCustomMessageType(type) && !KNOWN_MESSAGE_CHECKS.has(type))) {
    return "`type` is neither a known message type nor ocp.custom.*";
  }
  return `it does not match the ${type} schema (the root entry's decodeMessage names the member)`;
}

/**
 * Builds a plain, unsigned message as the root entry's `createMessage` does
 * (the same defaults, the same members in the same order, so the same signed
 * bytes), checked by its type's generated check: an invalid message is never
 * built (throws `invalid_message`).
 */
export function createMessage<T extends MessageType>(init: MessageInit<T>): MessageOf<T> {
  return buildMessage(init) as MessageOf<T>;
}

/** {@link createMessage} for a type known only at run time. */
export function buildMessage(init: RuntimeMessageInit): PlainMessage {
  // A copy (as the schema's parse makes one), checked after copying: later changes to the
  // caller's payload do not reach the message, and what is checked is what is returned.
  let candidate: unknown;
  let valid: boolean;
  try {
    candidate = structuredClone(messageCandidate(init));
    valid = plainMessageForm(candidate);
  } catch {
    valid = false; // a function, a symbol, a getter that throws: not a JSON value
  }
  if (!valid) {
    throw messagingError("invalid_message", `cannot build ${init.type}: ${refusal(candidate)}`);
  }
  return inCanonicalOrder(candidate as PlainMessage);
}

/**
 * Checks an already-parsed JSON value as a plain a2a+ocp message (known or
 * `ocp.custom.*` type), then its version. Never throws. The value is
 * returned as it is (not copied): treat it as read-only.
 */
export function decodeMessage(
  value: unknown,
  ownVersion: string = PROTOCOL_VERSION,
): Result<PlainMessage, "invalid_message" | "incompatible_version"> {
  let valid: boolean;
  try {
    valid = plainMessageForm(value);
  } catch {
    valid = false;
  }
  if (!valid) return fail("invalid_message", `not a valid a2a+ocp message: ${refusal(value)}`);
  const message = value as KnownMessage;
  if (!versionsCompatible(message.version, ownVersion)) {
    return fail(
      "incompatible_version",
      `message version ${message.version} is not compatible with ${ownVersion} (major ${semverMajor(ownVersion)})`,
      { details: { version: message.version, ownVersion } },
    );
  }
  return ok(message);
}

/**
 * Checks and verifies a profile as received (parsed JSON): its form, then
 * its self-signature over every member but `signature`.
 */
export function verifyAgentProfile(
  value: unknown,
  backend: Ed25519Backend = defaultEd25519(),
): Result<AgentProfile, "invalid_profile"> {
  let valid: boolean;
  try {
    valid = checkAgentProfile(value);
  } catch {
    valid = false;
  }
  if (!valid) return fail("invalid_profile", "malformed agent profile");
  const profile = value as AgentProfile;
  const publicKey = fromBase64Exact(profile.publicKey, ED25519_PUBLIC_KEY_BYTES);
  if (publicKey === undefined || !verifyObject(profile, publicKey, backend)) {
    return fail("invalid_profile", `the profile of ${profile.id} is not signed by its own key`);
  }
  return ok(profile);
}

/**
 * A {@link KeyLookup} over profiles, each verified first by
 * {@link verifyAgentProfile}; a profile that fails is refused with its error.
 */
export function keyLookupFromProfiles(profiles: Iterable<unknown>): KeyLookup {
  return keyLookupVerifiedBy(profiles, (value) => verifyAgentProfile(value));
}

/**
 * Builds the message `draft` describes from `signer` (its `from`) and signs
 * it: `invalid_message` when the draft is not a valid message of its type,
 * `invalid_key` when the secret key is not 32 bytes.
 */
export function signedMessage<T extends MessageType>(
  signer: Pick<AgentIdentity, "id" | "secretKey">,
  draft: MessageDraft<T>,
  options: { backend?: Ed25519Backend } = {},
): SignedMessage<T> {
  const message = createMessage<T>({ ...draft, from: signer.id } as MessageInit<T>);
  return signObject(message, signer.secretKey, options.backend ?? defaultEd25519());
}
