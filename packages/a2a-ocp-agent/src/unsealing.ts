/**
 * §8.4 the receive side of a sealed message: the agent verifies the sender's
 * signature over the sealed bytes, decrypts with its own encryption key (or
 * a retired one within {@link ENCRYPTION_KEY_GRACE_MS} of its rotation), and
 * checks that what it decrypted carries exactly the access fields the signed
 * `ocpSealed` declared (what the hub routed by). A message it cannot open is
 * refused with a named reason, which the agent emits as an `error` event;
 * nothing is dropped silently:
 *
 * | reason                     | when                                                           |
 * | -------------------------- | -------------------------------------------------------------- |
 * | `sealed_signature_invalid` | the signature does not verify over the sealed message          |
 * | `sealed_envelope_invalid`  | no valid `ocpSealed`                                           |
 * | `sealed_not_for_us`        | no wrapped key for this agent (sealed for someone else)        |
 * | `sealed_tampered`          | a wrapped key or the ciphertext fails authentication           |
 * | `sealed_access_mismatch`   | the payload's access fields are not the declared ones          |
 */
import {
  type EncryptedMessage,
  type KeyLookup,
  type PlainMessage,
  verifyMessage,
} from "@ocp/a2a-ocp-messaging";
import { sameAccess, sealedAccessOf, sealedEnvelopeOf } from "@ocp/a2a-ocp-messaging/internal";
import { decryptMessage } from "@ocp/a2a-ocp-messaging/node";
import { agentError } from "./errors.js";
import { ENCRYPTION_KEY_GRACE_MS } from "./limits.js";

/** An encryption key an agent rotated away from, kept to open older messages. */
export interface RetiredEncryptionKey {
  /** X25519 secret key, 32 bytes. */
  readonly secretKey: Uint8Array;
  /** When it was replaced, ms since the epoch. */
  readonly retiredAt: number;
}

/** Whether `message` is a sealed (encrypted) one. */
export function isSealed(message: unknown): message is EncryptedMessage {
  return (message as { encrypted?: unknown } | undefined)?.encrypted === true;
}

export class Opener {
  readonly #agentId: string;
  readonly #current: Uint8Array | undefined;
  readonly #retired: readonly RetiredEncryptionKey[];
  readonly #lookupKey: KeyLookup;
  readonly #now: () => number;

  constructor(options: {
    agentId: string;
    secretKey: Uint8Array | undefined;
    retired: readonly RetiredEncryptionKey[];
    lookupKey: KeyLookup;
    now: () => number;
  }) {
    this.#agentId = options.agentId;
    this.#current = options.secretKey;
    this.#retired = options.retired;
    this.#lookupKey = options.lookupKey;
    this.#now = options.now;
  }

  /** The readable message; throws an agent error with the reason it cannot be opened. */
  async open(message: EncryptedMessage): Promise<PlainMessage> {
    const details = { messageId: message.id, from: message.from, type: message.type };
    const signed = await verifyMessage(message, this.#lookupKey);
    if (!signed.ok) {
      throw agentError(
        "sealed_signature_invalid",
        `the signature of sealed message ${message.id} does not cover its sealed bytes (${signed.error.code})`,
        { details: { ...details, code: signed.error.code } },
      );
    }
    const declared = sealedEnvelopeOf(message);
    if (declared === undefined) {
      throw agentError(
        "sealed_envelope_invalid",
        `sealed message ${message.id} declares no ocpSealed`,
        { details },
      );
    }
    if (!message.payload.recipientKeys.some((k) => k.agentId === this.#agentId)) {
      throw agentError(
        "sealed_not_for_us",
        `sealed message ${message.id} is sealed for others, not ${this.#agentId}`,
        { details },
      );
    }
    const now = this.#now();
    const keys = [
      ...(this.#current === undefined ? [] : [this.#current]),
      ...this.#retired
        .filter((k) => now - k.retiredAt <= ENCRYPTION_KEY_GRACE_MS)
        .map((k) => k.secretKey),
    ];
    let opened: PlainMessage | undefined;
    for (const secretKey of keys) {
      const result = decryptMessage(message, { agentId: this.#agentId, secretKey });
      if (result.ok) {
        opened = result.value;
        break;
      }
    }
    if (opened === undefined) {
      throw agentError(
        "sealed_tampered",
        `sealed message ${message.id} does not decrypt with this agent's keys: changed in transit, or sealed for a key it does not hold`,
        { details },
      );
    }
    const carried = sealedAccessOf(opened.type, opened.from, opened.payload);
    if (!sameAccess(carried, declared.access)) {
      throw agentError(
        "sealed_access_mismatch",
        `sealed message ${message.id} carries other access fields than it declared`,
        { details },
      );
    }
    return opened;
  }
}
