/**
 * The one way a sender builds and signs a message: {@link signedMessage}
 * takes the signer and a typed draft, builds the message (validated by its
 * schema, as `createMessage` does) with `from` set to the signer, and signs
 * it (§8.2). The result is typed by the draft's `type`, so no call site
 * casts a message to a record to sign it.
 */
import type { MessageType } from "./envelope.js";
import type { AgentIdentity } from "./identity.js";
import {
  buildMessage,
  createMessage,
  type MessageInit,
  type MessageOf,
  type PlainMessage,
  type RuntimeMessageInit,
} from "./messages.js";
import { defaultEd25519, type Ed25519Backend, signObject } from "./signing.js";

/** A message as its sender writes it: every envelope field but `from`, which is the signer. */
export type MessageDraft<T extends MessageType> = Omit<MessageInit<T>, "from">;

/** A signed plain message of type `T`. */
export type SignedMessage<T extends MessageType> = MessageOf<T> & { signature: string };

/** Who signs: an identity's URI and Ed25519 secret key. */
export type MessageSigner = Pick<AgentIdentity, "id" | "secretKey">;

export interface SignedMessageOptions {
  /** The Ed25519 implementation; defaults to the package's (native in Node). */
  backend?: Ed25519Backend;
}

/**
 * {@link SignedMessageOptions} with `edit`: changes the built message before
 * it is signed. For conformance suites that must send what an honest sender
 * would not (a stale timestamp, an extension field); the result is then a
 * plain signed record, no longer typed by the draft.
 */
export interface EditedMessageOptions extends SignedMessageOptions {
  edit: (message: Record<string, unknown>) => void;
}

/** A signed JSON object that no schema vouches for (see {@link EditedMessageOptions}). */
export type SignedRecord = Record<string, unknown> & { signature: string };

/**
 * Builds the message `draft` describes from `signer` and signs it. Throws
 * `invalid_message` when the draft is not a valid message of its type and
 * `invalid_key` when the secret key is not 32 bytes.
 */
export function signedMessage<T extends MessageType>(
  signer: MessageSigner,
  draft: MessageDraft<T>,
  options?: SignedMessageOptions,
): SignedMessage<T>;
export function signedMessage<T extends MessageType>(
  signer: MessageSigner,
  draft: MessageDraft<T>,
  options: EditedMessageOptions,
): SignedRecord;
export function signedMessage<T extends MessageType>(
  signer: MessageSigner,
  draft: MessageDraft<T>,
  options: SignedMessageOptions | EditedMessageOptions = {},
): SignedMessage<T> | SignedRecord {
  const init: MessageInit<T> = { ...draft, from: signer.id };
  const message = createMessage(init);
  if (!("edit" in options)) return signObject(message, signer.secretKey, backendOf(options));
  return signEdited(message, signer, options);
}

/** A draft whose `type` is known only at run time (see {@link RuntimeMessageInit}). */
export type RuntimeMessageDraft = Omit<RuntimeMessageInit, "from">;

/**
 * {@link signedMessage} for a type known only at run time (a conformance
 * suite's tables, a fixture answering what it read): the same build, checks
 * and signature; the result is a signed {@link PlainMessage}.
 */
export function signedRuntimeMessage(
  signer: MessageSigner,
  draft: RuntimeMessageDraft,
  options?: SignedMessageOptions,
): PlainMessage & { signature: string };
export function signedRuntimeMessage(
  signer: MessageSigner,
  draft: RuntimeMessageDraft,
  options: EditedMessageOptions,
): SignedRecord;
export function signedRuntimeMessage(
  signer: MessageSigner,
  draft: RuntimeMessageDraft,
  options: SignedMessageOptions | EditedMessageOptions = {},
): (PlainMessage & { signature: string }) | SignedRecord {
  const message = buildMessage({ ...draft, from: signer.id });
  if (!("edit" in options)) return signObject(message, signer.secretKey, backendOf(options));
  return signEdited(message, signer, options);
}

function backendOf(options: SignedMessageOptions): Ed25519Backend {
  return options.backend ?? defaultEd25519();
}

function signEdited(
  message: object,
  signer: MessageSigner,
  options: EditedMessageOptions,
): SignedRecord {
  const record: Record<string, unknown> = Object.fromEntries(Object.entries(message));
  options.edit(record);
  return signObject(record, signer.secretKey, backendOf(options));
}
