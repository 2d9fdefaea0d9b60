/**
 * The public types of a connection: what `send` reports, what arrives, how
 * a connection ends, its counters and its events.
 */
import type { WsError } from "./errors.js";

/** What became of a message handed to `send` or `sendBatch`. */
export type SendStatus =
  /** Handed to the socket. */
  | "sent"
  /** Held in the connection's queue (check `backpressured`, wait for `drain`). */
  | "queued"
  /** Dropped: the connection is not open (handshake, closing or closed). */
  | "closed"
  /** Dropped: it would exceed `maxOutboundBufferBytes`; the connection is closing with 4003. */
  | "overflow";

export type ConnectionState = "handshake" | "open" | "closing" | "closed";

export interface MessageMeta {
  /** Whether the message arrived as a length-prefixed record of a binary frame (else a text frame). */
  binary: boolean;
}

export interface DisconnectNotice {
  code: number;
  reason: string;
}

/** How a connection ended; reported once, by the `close` event and `closed`. */
export interface CloseInfo {
  /** The close code: the one this side closed with, or the one the peer sent. */
  code: number;
  reason: string;
  /** Which side ended the connection. */
  initiator: "local" | "remote";
  /** The disconnect notice the peer sent before closing, if it did. */
  notice?: DisconnectNotice;
  /** The failure behind the close, if there was one. */
  error?: WsError;
}

export interface ConnectionStats {
  state: ConnectionState;
  /** Bytes waiting in the connection's own queue. */
  queuedBytes: number;
  /** Messages waiting in the connection's own queue. */
  queuedMessages: number;
  /** Bytes the socket holds that are not yet written out. */
  bufferedAmount: number;
  /** `queuedBytes + bufferedAmount`: what this connection holds on its way out. */
  outboundBytes: number;
  /** Highest `outboundBytes` ever observed. Never exceeds `maxOutboundBufferBytes`. */
  peakOutboundBytes: number;
  backpressured: boolean;
  messagesIn: number;
  messagesOut: number;
  bytesIn: number;
  bytesOut: number;
}

export interface ConnectionEvents {
  /** An application message, as the exact text that arrived. */
  message: [raw: string, meta: MessageMeta];
  /** Outbound bytes rose above `highWaterBytes`. */
  backpressure: [];
  /** Outbound bytes fell to `lowWaterBytes` after `backpressure`. */
  drain: [];
  /** The peer sent a graceful disconnect notice; its close follows. */
  disconnecting: [notice: DisconnectNotice];
  /** The connection ended. */
  close: [info: CloseInfo];
}
