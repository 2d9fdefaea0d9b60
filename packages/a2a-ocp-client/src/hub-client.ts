/**
 * `HubClient`: an agent's connection to an {@link OCPHub}. It announces the
 * agent (its signed profile, signed over the connection's nonce), signs what
 * it sends and resolves each `send` when the hub acknowledges it (for a
 * durable message: once committed), verifies everything it receives (§8.3,
 * native Ed25519, with keys from verified profiles the hub hands out), and
 * resumes after a reconnect from the last durable sequence number it saw,
 * dropping duplicates by message id.
 */
import { EventEmitter } from "node:events";
import type {
  CapabilityConfirmPayload,
  CustomMessageType,
  KnownMessageType,
  OcpFeature,
} from "@ocp/a2a-ocp-messaging";
import {
  type AgentIdentity,
  type AgentProfile,
  createAgentProfile,
  InboundPipeline,
  type KeyLookup,
  type MessageDraft,
  signedMessage,
  signObject,
  type WireMessage,
} from "@ocp/a2a-ocp-messaging";
import { createDecompressor, nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { HubControlSchema } from "@ocp/a2a-ocp-messaging/schemas";
import type { CloseInfo } from "@ocp/transport-ws";
import { CLOSE_CODES, WsClient } from "@ocp/transport-ws";
import type { OcpError } from "@ocp/types";
import { DeliveryReplayWindow } from "./delivery-replay.js";
import { DiscoveryRequests, type FindAgentsQuery, type FindAgentsResult } from "./discovery.js";
import { DropReporter } from "./drops.js";
import {
  CLIENT_ACK_TIMEOUT_MS,
  CLIENT_DEDUP_MAX_ENTRIES,
  CLIENT_MAX_PENDING_SENDS,
} from "./limits.js";
import { type HubInfo, hubInfoOf, Negotiation } from "./negotiation.js";
import type { HubClientOptions } from "./options.js";
import { PendingSends } from "./pending-sends.js";
import { ProfileDirectory } from "./profiles.js";
import type { HubClientEvents, SendReceipt } from "./receipts.js";
import { ResumePoint } from "./resume.js";
import { ClientTracer } from "./tracing.js";

export type { HubClientOptions } from "./options.js";

export type {
  DeliveredMessage,
  DroppedMessage,
  HubClientEvents,
  SendReceipt,
} from "./receipts.js";

import {
  buildAnnouncement,
  HUB_TYPES,
  isHubFrame,
  parseTracedDeliver,
} from "@ocp/a2a-ocp-messaging/internal";
import { parseJsonText } from "@ocp/types/internal";
import { clientError, hubRejection } from "./errors.js";

export class HubClient extends EventEmitter<HubClientEvents> {
  readonly identity: AgentIdentity;
  readonly profile: AgentProfile;
  /** Finds a sender's public key the way this client verifies (option, else profiles from the hub). */
  readonly lookupKey: KeyLookup;
  readonly #options: HubClientOptions;
  readonly #ws: WsClient;
  readonly #pipeline: InboundPipeline;
  readonly #profiles: ProfileDirectory;
  readonly #discovery: DiscoveryRequests;
  readonly #pending: PendingSends;
  readonly #negotiation = new Negotiation();
  #hub: HubInfo | undefined;
  readonly #resume: ResumePoint;
  #chain: Promise<void> = Promise.resolve();
  readonly #replay: DeliveryReplayWindow;
  readonly #drops: DropReporter;
  readonly #tracing: ClientTracer;

  constructor(options: HubClientOptions) {
    super();
    this.#options = options;
    this.#tracing = new ClientTracer(options.tracing);
    this.#pending = new PendingSends(options.ackTimeoutMs ?? CLIENT_ACK_TIMEOUT_MS);
    this.identity = options.identity;
    this.profile = options.profile ?? createAgentProfile(options.identity, {}, nativeEd25519);
    this.#resume = new ResumePoint(
      options.lastSeq ?? 0,
      (frame) => this.#ws.send(frame),
      (seq) => {
        this.#ws.lastSeq = seq;
      },
    );
    this.#profiles = new ProfileDirectory((frame) => this.#ws.send(frame));
    this.#profiles.add(this.profile);
    this.#discovery = new DiscoveryRequests(
      (f) => this.#ws.send(f),
      (p) => this.#profiles.add(p),
    );
    this.lookupKey = options.lookupKey ?? ((agentId) => this.#profiles.keyOf(agentId));
    this.#drops = new DropReporter(this, this.identity.id);
    this.#replay = new DeliveryReplayWindow({
      ...options.dedup,
      maxEntries: options.dedup?.maxEntries ?? CLIENT_DEDUP_MAX_ENTRIES,
    });
    this.#pipeline = new InboundPipeline({
      lookupKey: this.lookupKey,
      ed25519: nativeEd25519,
      decompress: createDecompressor(),
      replay: this.#replay,
      ...(options.decrypt === undefined ? {} : { decrypt: options.decrypt }),
    });
    this.#ws = new WsClient({
      ...options.transport,
      url: options.url,
      reconnect: options.reconnect ?? true,
      announce: (nonce) =>
        buildAnnouncement(this.identity, this.profile, nonce, this.lastSeq, nativeEd25519, {
          priorityOrder: true,
          trace: this.#tracing.asks,
        }),
      onMessage: (raw) => this.#onFrame(raw),
      onReconnected: () => {
        this.#profiles.resend();
        for (const pending of this.#pending.values()) {
          pending.resent = pending.sent;
          pending.sent = this.#ws.send(pending.raw) !== "closed";
        }
        this.emit("reconnected");
      },
    });
    this.#ws.lastSeq = this.lastSeq;
    // Sends made before the first registration go out as soon as it is confirmed.
    this.#ws.on("registered", (registration) => {
      this.#chain = this.#chain.then(() => this.#resume.reset());
      this.#hub = hubInfoOf(registration.payload) ?? this.#hub;
      this.#tracing.confirmed = registration.payload["ocpTrace"] === true;
      if (this.#hub?.profile !== undefined) this.#profiles.add(this.#hub.profile);
      if (registration.reconnected) return;
      for (const pending of this.#pending.values()) {
        if (!pending.sent) pending.sent = this.#ws.send(pending.raw) !== "closed";
      }
    });
    this.#ws.on("close", (info) => {
      this.#stop(clientError("not_connected", `connection to the hub ended: ${info.reason}`));
      this.emit("close", info);
    });
  }

  /** Connects, announces and resolves once registered (rejects with the hub's refusal). */
  static async connect(options: HubClientOptions): Promise<HubClient> {
    const client = new HubClient(options);
    await client.connect();
    return client;
  }

  connect(): Promise<void> {
    return this.#ws.connect();
  }

  get agentId(): string {
    return this.identity.id;
  }

  /** The last durable sequence number delivered (persist it to resume across restarts). */
  get lastSeq(): number {
    return this.#resume.lastSeq;
  }

  /** Messages sent and not yet acknowledged. */
  get pendingSends(): number {
    return this.#pending.size;
  }

  get connected(): boolean {
    return this.#ws.state === "open";
  }

  /** The hub's identity from its registration frame (`undefined` for hubs that do not send it). */
  get hub(): HubInfo | undefined {
    return this.#hub;
  }

  /** The features the hub confirmed (§7.2); `undefined` before {@link negotiate}. */
  get confirmedFeatures(): ReadonlySet<string> | undefined {
    return this.#negotiation.confirmed;
  }

  /**
   * §7.2: announces `features` to the hub and resolves with its signed
   * `capability.confirm`. Afterwards `send` refuses a message of a feature
   * not confirmed with `feature_not_negotiated` (the hub refuses it too).
   */
  async negotiate(
    features: readonly OcpFeature[],
    version = "1.0.0",
  ): Promise<CapabilityConfirmPayload> {
    const hubId = this.#hub?.id;
    if (hubId === undefined) throw clientError("not_connected", "the hub has not named itself");
    const announce = signedMessage(
      this.identity,
      { type: "capability.announce", to: hubId, payload: { features: [...features], version } },
      { backend: nativeEd25519 },
    );
    const confirmed = this.#negotiation.expect(
      announce.id,
      this.#options.ackTimeoutMs ?? CLIENT_ACK_TIMEOUT_MS,
    );
    await this.send(announce);
    return confirmed;
  }

  /**
   * Signs (if unsigned) and sends a message, or builds one from `init` with
   * `from` set to this agent. Resolves with the hub's ack — for a durable
   * message once it is committed — and rejects with the hub's typed error
   * (`OcpError` with the reject's `code`), `hub_timeout` or `not_connected`.
   * While the connection is down the message waits and is sent on reconnect.
   */
  send<T extends KnownMessageType | CustomMessageType>(
    message: MessageDraft<T> | WireMessage,
  ): Promise<SendReceipt> {
    if (this.#ws.state === "closed") {
      return Promise.reject(clientError("not_connected", "the client is closed"));
    }
    if (this.#pending.size >= CLIENT_MAX_PENDING_SENDS) {
      return Promise.reject(clientError("hub_backlog", "too many messages await the hub's ack"));
    }
    const signed: WireMessage = !("protocol" in message)
      ? signedMessage(this.identity, message, { backend: nativeEd25519 })
      : message.signature === undefined
        ? signObject(message, this.identity.secretKey, nativeEd25519)
        : message;
    const id = signed.id;
    const unconfirmed = this.#negotiation.refusal(signed.type);
    if (unconfirmed !== undefined) return Promise.reject(unconfirmed);
    const raw = JSON.stringify(signed);
    return this.#tracing.send(signed, raw, (frame) => {
      return new Promise<SendReceipt>((resolve, reject) => {
        const pending = this.#pending.add(id, raw, resolve, reject); // A resend goes bare.
        // Undefined: the same message already waits for its ack; this send shares its outcome.
        if (pending !== undefined) pending.sent = this.#ws.send(frame) !== "closed";
      });
    });
  }

  /**
   * §7.3 `findAgents`: the verified cards of the agents the hub knows that
   * match every given criterion and that this agent may see (§8.5, as for
   * knowledge). Rejects with `hub_frame_invalid`, `hub_timeout` or `not_connected`.
   */
  findAgents(query: FindAgentsQuery = {}): Promise<FindAgentsResult> {
    return this.#discovery.ask(query, this.#options.ackTimeoutMs ?? CLIENT_ACK_TIMEOUT_MS);
  }

  /** Sends the pending confirmation, then closes for good. */
  async close(): Promise<CloseInfo> {
    this.#resume.confirm();
    return this.#ws.close(CLOSE_CODES.NORMAL, "agent leaving");
  }

  #onFrame(frame: string): void {
    if (!isHubFrame(frame)) {
      this.#enqueue(frame, undefined);
      return;
    }
    const delivery = parseTracedDeliver(frame);
    if (delivery !== undefined) {
      this.#tracing.received(delivery.traceparent, delivery.seq);
      this.#enqueue(delivery.raw, delivery.seq);
      return;
    }
    const json = parseJsonText(frame);
    if (!json.ok) return;
    const parsed = HubControlSchema.safeParse(json.value);
    if (!parsed.success) return;
    const control = parsed.data;
    if (control.type === HUB_TYPES.PROFILE) {
      this.#profiles.answer(
        control.payload.agentId,
        control.payload.profile,
        control.payload.publicKey,
      );
      return;
    }
    if (control.type === HUB_TYPES.BATCH) {
      const { count, lastSeq } = control.payload;
      this.#chain = this.#chain.then(() => this.#resume.batch(count, lastSeq));
      return;
    }
    if (this.#discovery.handle(control) || control.type === HUB_TYPES.DISCOVERY_RESULT) return;
    const id = control.payload.id;
    const lookedUp =
      control.type === HUB_TYPES.REJECT ? control.payload.details?.["agentId"] : undefined;
    if (id === undefined && typeof lookedUp === "string") {
      // A lookup over the hub's budget: no key now (the sender is unknown), not a 10 s wait.
      this.#profiles.answer(lookedUp, undefined);
      return;
    }
    const pending = id === undefined ? undefined : this.#pending.take(id);
    if (pending === undefined || id === undefined) return;
    if (control.type === HUB_TYPES.ACK) {
      const { durable, recipients, expiresAt } = control.payload;
      const excluded =
        typeof control.payload["excluded"] === "number" ? control.payload["excluded"] : 0;
      const receipt: SendReceipt = { id, durable, recipients, excluded, duplicate: false };
      if (expiresAt !== undefined) receipt.expiresAt = expiresAt;
      pending.resolve(receipt);
      return;
    }
    if (pending.resent && control.payload.code === "replay_detected") {
      pending.resolve({ id, durable: true, recipients: 0, excluded: 0, duplicate: true });
      return;
    }
    pending.reject(
      hubRejection(control.payload.code, control.payload.message, control.payload.details ?? {}),
    );
  }

  /** Deliveries are verified one after another, so they are emitted in order. */
  #enqueue(raw: string, seq: number | undefined): void {
    this.#chain = this.#chain
      .then(() => this.#deliver(raw, seq))
      .catch((error: unknown) => {
        // A throwing "message" listener is the caller's bug: surface it, keep delivering.
        process.nextTick(() => {
          throw error;
        });
      });
  }

  /**
   * Verifies one delivery and tells the application (`message`, or
   * `dropped`) before its sequence number counts as handled, so nothing is
   * confirmed to the hub unseen. A durable delivery with a new sequence
   * number passes a replay filter that cannot prove its id unseen (see
   * {@link DeliveryReplayWindow}); an exact replay is dropped, visibly.
   */
  async #deliver(raw: string, seq: number | undefined): Promise<void> {
    if (seq !== undefined && this.#resume.had(seq)) {
      const error = clientError("replay_detected", `delivery ${seq} was handled already`);
      this.#drops.report({ code: "replay_detected", error, seq, durable: true, raw });
      return;
    }
    this.#replay.vouched = seq !== undefined;
    this.#replay.unproven = false;
    const accepted = await this.#pipeline.accept(raw);
    const unproven = this.#replay.unproven;
    this.#replay.vouched = false;
    try {
      if (!accepted.ok) {
        const { code } = accepted.error;
        this.#drops.report({ code, error: accepted.error, seq, durable: seq !== undefined, raw });
        return;
      }
      if (this.#negotiation.observe(accepted.value.message, this.#hub?.id)) return;
      this.emit("message", {
        message: accepted.value.message,
        wire: accepted.value.wire,
        raw,
        seq,
        ...(unproven ? { possibleReplay: true as const } : {}),
      });
    } finally {
      if (seq !== undefined) this.#resume.handled(seq);
    }
  }

  #stop(error: OcpError): void {
    this.#resume.stop();
    this.#profiles.fail(error);
    this.#discovery.fail(error);
    this.#negotiation.fail(error);
    this.#pending.failAll(error);
  }
}
