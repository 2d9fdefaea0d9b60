import type { PlainMessage } from "@ocp/a2a-ocp-messaging";
import { canonicalHash } from "./merge.js";

/**
 * Which signed message something arrived in: its id, type, sender and
 * digest, so that what the agent learned can be traced back to a message
 * whose signature anyone holding the sender's key can check.
 */
export interface MessageReceipt {
  readonly messageId: string;
  /** The message type (`ocp.knowledge.stream`, `ocp.collective.response`, ...). */
  readonly type: string;
  readonly from: string;
  /** `sha256:` + hex SHA-256 of the RFC 8785 canonical JSON of the whole signed message (signature included). */
  readonly digest: string;
}

/** The digest of a signed message: `sha256:` + hex SHA-256 of its canonical JSON, signature included. */
export function messageDigest(message: PlainMessage | Record<string, unknown>): string {
  return `sha256:${canonicalHash(message)}`;
}

/** The receipt of a received message. */
export function receiptOf(message: PlainMessage): MessageReceipt {
  return {
    messageId: message.id,
    type: message.type,
    from: message.from,
    digest: messageDigest(message),
  };
}
