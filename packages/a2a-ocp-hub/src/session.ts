/**
 * One registered agent's deliveries on its connection. Durable deliveries go
 * out strictly in sequence: a live delivery is sent at once when it is the
 * next number; otherwise (after a reconnect, or a gap) the session catches up
 * from the store, page by page, waiting for the socket to drain between
 * pages, and only then goes live again; for an agent that announced
 * `ocpPriorityOrder`, each page in §4.1 priority order (priority.ts).
 * Transient deliveries are sent as the sender's bytes.
 */

import {
  encodeDeliver,
  encodeHubControl,
  encodeTracedDeliver,
  HUB_TYPES,
} from "@ocp/a2a-ocp-messaging/internal";
import type { Connection } from "@ocp/transport-ws";
import type { Pacer } from "./agent-limits.js";
import type { HubAudit } from "./audit.js";
import type { BusDelivery } from "./bus.js";
import { HUB_REPLAY_PAGE_SIZE } from "./limits.js";
import { byPriority } from "./priority.js";
import type { HubStore } from "./store.js";
import type { SessionTelemetry } from "./telemetry.js";

export class AgentSession {
  readonly agentId: string;
  readonly connection: Connection;
  /** Last durable sequence number sent on this connection. */
  sentSeq: number;
  /**
   * The features the hub confirmed to this agent (§7.2); `undefined` until it
   * negotiates, and then messages of other features are refused.
   */
  features: Set<string> | undefined;
  readonly #store: HubStore;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  readonly #audit: HubAudit | undefined;
  readonly #pacer: Pacer | undefined;
  /** Replay pages go out in priority order, each after an `ocp.hub.batch` (priority.ts). */
  readonly #priorityOrder: boolean;
  readonly #telemetry: SessionTelemetry | undefined;
  #catchingUp = false;
  #dirty = false;

  constructor(options: {
    agentId: string;
    connection: Connection;
    store: HubStore;
    afterSeq: number;
    now: () => number;
    onError: (error: unknown) => void;
    /** The hub's audit log: every message sent on the connection is recorded as delivered. */
    audit?: HubAudit | undefined;
    /** The agent's declared `maxStreamBandwidth` (§7.1): what the session may send it. */
    pacer?: Pacer | undefined;
    priorityOrder?: boolean;
    /** Hop histograms and spans of live deliveries (telemetry.ts). */
    telemetry?: SessionTelemetry | undefined;
  }) {
    this.agentId = options.agentId;
    this.connection = options.connection;
    this.sentSeq = options.afterSeq;
    this.features = undefined;
    this.#store = options.store;
    this.#now = options.now;
    this.#onError = options.onError;
    this.#audit = options.audit;
    this.#pacer = options.pacer;
    this.#priorityOrder = options.priorityOrder === true;
    this.#telemetry = options.telemetry;
  }

  get open(): boolean {
    return this.connection.state === "open";
  }

  /** Hands one delivery to the connection (or to the catch-up). */
  deliver(delivery: BusDelivery): void {
    if (!this.open) return;
    if (delivery.kind === "transient") {
      // Over the agent's bandwidth: a live-only message is dropped, not queued.
      if (this.#pacer === undefined || this.#pacer.take(delivery.bytes.length)) {
        const hop = this.#telemetry?.delivering(delivery.trace);
        this.#send(delivery.bytes, delivery.bytes);
        hop?.written();
      } else this.#audit?.dropped(this.agentId, delivery.bytes, this.#pacer.bytesPerSecond);
      return;
    }
    if (this.#catchingUp) {
      this.#dirty = true;
      return;
    }
    if (delivery.seq <= this.sentSeq) return;
    if (delivery.seq === this.sentSeq + 1 && this.#paced(delivery.raw)) {
      this.sentSeq = delivery.seq;
      const hop = this.#telemetry?.delivering(delivery.trace);
      const traceparent = hop?.traceparent;
      const frame =
        traceparent === undefined
          ? encodeDeliver(delivery.seq, delivery.raw)
          : encodeTracedDeliver(delivery.seq, traceparent, delivery.raw);
      this.#send(frame, delivery.raw);
      hop?.written();
      return;
    }
    this.catchUp();
  }

  /** Whether `raw` fits the agent's bandwidth now (taken from it when it does). */
  #paced(raw: string): boolean {
    return this.#pacer === undefined || this.#pacer.take(Buffer.byteLength(raw));
  }

  /** Sends a frame carrying `message`; the audit log records it when the connection took it. */
  #send(frame: string | Buffer, message: string | Buffer): void {
    const status = this.connection.send(frame);
    if (this.#audit !== undefined && (status === "sent" || status === "queued"))
      this.#audit.delivered(this.agentId, message);
  }

  /** Sends everything stored after `sentSeq`, in order, then goes live. */
  catchUp(): void {
    if (this.#catchingUp) {
      this.#dirty = true;
      return;
    }
    this.#catchingUp = true;
    this.#run().then(
      () => {
        this.#catchingUp = false;
      },
      (error: unknown) => {
        this.#catchingUp = false;
        this.#onError(error);
      },
    );
  }

  async #run(): Promise<void> {
    for (;;) {
      this.#dirty = false;
      if (!this.open) return;
      if (this.connection.backpressured) {
        await new Promise<void>((resolve) => {
          const done = () => {
            this.connection.off("drain", done);
            this.connection.off("close", done);
            resolve();
          };
          this.connection.on("drain", done);
          this.connection.on("close", done);
        });
        continue;
      }
      const page = await this.#store.pending(
        this.agentId,
        this.sentSeq,
        HUB_REPLAY_PAGE_SIZE,
        this.#now(),
      );
      const ordered = this.#priorityOrder ? byPriority(page) : page;
      const last = page.at(-1);
      if (ordered !== page && last !== undefined) {
        const batch = { count: page.length, lastSeq: last.seq };
        this.connection.send(encodeHubControl(HUB_TYPES.BATCH, batch));
      }
      for (const pending of ordered) {
        if (!this.open) return;
        // Within the agent's bandwidth: durable messages wait their turn.
        while (!this.#paced(pending.raw)) {
          await new Promise((resolve) => setTimeout(resolve, this.#pacer!.waitMs()).unref());
          if (!this.open) return;
        }
        if (ordered === page) this.sentSeq = pending.seq;
        this.#send(encodeDeliver(pending.seq, pending.raw), pending.raw);
      }
      // A reordered page counts as sent once all of it is (confirmations never pass a gap).
      if (last !== undefined && this.open) this.sentSeq = Math.max(this.sentSeq, last.seq);
      if (page.length < HUB_REPLAY_PAGE_SIZE && !this.#dirty) return;
    }
  }
}
