/** What a {@link HubClient} reports: receipts, deliveries, drops, events. */
import type {
  EncryptedMessage,
  InboundErrorCode,
  PlainMessage,
  WireMessage,
} from "@ocp/a2a-ocp-messaging";
import type { CloseInfo } from "@ocp/transport-ws";
import type { OcpError } from "@ocp/types";

/** The hub's answer to a `send`. */
export interface SendReceipt {
  id: string;
  /** Committed to the hub's store (knowledge, sync, consensus, direct messages). */
  durable: boolean;
  /** Recipients it was committed for or forwarded to. */
  recipients: number;
  /** Recipients left out by §8.5 visibility. */
  excluded: number;
  /** The hub already had it (a resend after a lost ack). */
  duplicate: boolean;
  /**
   * When the hub stops delivering it (ISO 8601): its timestamp + ttl (or the
   * hub's default TTL) + the hub's clock-skew grace. A durable message stays
   * in the hub's store until then for recipients that are offline. Absent
   * when the hub does not say (hubs before it, or a `duplicate`).
   */
  expiresAt?: string;
}

/** A verified message from the hub. */
export interface DeliveredMessage {
  /** The readable message (decompressed; decrypted when a decryptor is set, else the encrypted form). */
  message: PlainMessage | EncryptedMessage;
  /** The message as received. */
  wire: WireMessage;
  /** The exact text the sender signed. */
  raw: string;
  /** Its durable sequence number, when durable. */
  seq: number | undefined;
  /**
   * True when the client's replay filter could not prove the id unseen (a
   * possible Bloom-filter false positive) and the hub's new sequence number
   * vouched for it: delivered rather than lost; an application that must
   * never act twice checks the id against its own records.
   */
  possibleReplay?: true;
}

/**
 * A delivery the client refused (bad signature, expired, a replay, …); it is
 * not emitted as a message. Emitted before its sequence number is confirmed
 * to the hub: a durable delivery is confirmed as handled once this event has
 * run, so this is the application's one chance to see it.
 */
export interface DroppedMessage {
  code: InboundErrorCode;
  error: OcpError;
  seq: number | undefined;
  /** Whether it came with a durable sequence number (the hub will not send it again once confirmed). */
  durable: boolean;
  /** The message id, when readable. */
  id?: string;
  /** The text as received (the message inside the hub's delivery frame). */
  raw: string;
}

export interface HubClientEvents {
  message: [delivered: DeliveredMessage];
  dropped: [dropped: DroppedMessage];
  reconnected: [];
  close: [info: CloseInfo];
}
