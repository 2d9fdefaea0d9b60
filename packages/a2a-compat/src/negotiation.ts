/**
 * §7.2 feature negotiation, agent to agent, with signed messages over the
 * agent's link (the hub forwards `capability.*` like any direct message).
 *
 * When an agent first talks to a peer it sends `capability.announce` with
 * the features it offers; the peer answers `capability.confirm` (correlated
 * by `correlation_id`) with the features both offer. Both sides then keep
 * that set for the peer. {@link negotiatedLink} wraps an `AgentLink` so
 * that an `OCPAgent` never sends a peer a message of a feature the peer did
 * not confirm: the send fails with `FeatureNotConfirmed` before
 * anything leaves the process. Broadcasts are not checked (the hub fans them
 * out to agents this one may never have negotiated with); `capability.*` and
 * `ocp.custom.*` belong to no feature.
 */

import type { AgentLink } from "@ocp/a2a-ocp-agent";
import { Waiters } from "@ocp/a2a-ocp-agent/internal";
import type { AgentIdentity, CapabilityConfirmPayload } from "@ocp/a2a-ocp-messaging";
import {
  BROADCAST,
  createMessage,
  type Ed25519Backend,
  type OcpFeature,
  type PlainMessage,
  PROTOCOL_VERSION,
  signObject,
  versionsCompatible,
} from "@ocp/a2a-ocp-messaging";
import { OcpFeatureSchema } from "@ocp/a2a-ocp-messaging/schemas";
import { OcpError } from "@ocp/types";
import { a2aError } from "./errors.js";
import { MAX_NEGOTIATED_PEERS, NEGOTIATION_TIMEOUT_MS } from "./limits.js";

/** The §7.1 feature a message type belongs to; `undefined` for `capability.*` and custom types. */
export function featureOf(type: string): OcpFeature | undefined {
  if (type.startsWith("ocp.knowledge.sync.") || type.startsWith("ocp.sync."))
    return "bidirectional_sync";
  if (type.startsWith("ocp.knowledge.")) return "knowledge_streaming";
  if (type.startsWith("ocp.collective.")) return "collective_query";
  if (type.startsWith("ocp.consensus.")) return "consensus_voting";
  if (type.startsWith("ocp.awareness.")) return "awareness_beacon";
  if (type.startsWith("ocp.event.")) return "event_publishing";
  return undefined;
}

/** A message was not sent: its feature is not among those the peer confirmed (§7.2). */
export class FeatureNotConfirmed extends OcpError<"feature_not_confirmed"> {
  override readonly name = "FeatureNotConfirmed";
  readonly peer: string;
  readonly feature: OcpFeature;
  readonly messageType: string;
  readonly confirmed: readonly OcpFeature[];

  constructor(
    peer: string,
    feature: OcpFeature,
    messageType: string,
    confirmed: readonly OcpFeature[],
  ) {
    super(
      "feature_not_confirmed",
      `${peer} did not confirm ${feature}, so ${messageType} was not sent (confirmed: ${confirmed.join(", ") || "none"})`,
      {
        details: { peer, feature, type: messageType, confirmed: [...confirmed] },
      },
    );
    this.peer = peer;
    this.feature = feature;
    this.messageType = messageType;
    this.confirmed = confirmed;
  }
}

export interface FeatureNegotiatorOptions {
  identity: AgentIdentity;
  /** The raw link (not the {@link negotiatedLink} wrapper). */
  link: AgentLink;
  /** The features this agent offers; every OCP feature by default. */
  features?: readonly OcpFeature[];
  timeoutMs?: number;
  maxPeers?: number;
  ed25519?: Ed25519Backend;
}

/** Negotiation state per peer: announce, confirm, and the check before each send. */
export class FeatureNegotiator {
  readonly features: readonly OcpFeature[];
  readonly #options: FeatureNegotiatorOptions;
  readonly #confirmed = new Map<string, readonly OcpFeature[]>();
  readonly #inflight = new Map<string, Promise<readonly OcpFeature[]>>();
  readonly #waiters = new Waiters<{ from: string; payload: CapabilityConfirmPayload }>();
  readonly #off: () => void;

  constructor(options: FeatureNegotiatorOptions) {
    this.#options = options;
    this.features = [...new Set(options.features ?? OcpFeatureSchema.options)];
    this.#off = options.link.onMessage((m) => {
      this.#onMessage(m).catch(() => {});
    });
  }

  /** The features `peer` confirmed (or that this agent confirmed to it), or `undefined` before negotiation. */
  confirmedWith(peer: string): readonly OcpFeature[] | undefined {
    return this.#confirmed.get(peer);
  }

  /** Announces this agent's features to `peer` and resolves with those it confirms (bounded wait). */
  negotiate(peer: string): Promise<readonly OcpFeature[]> {
    const running = this.#inflight.get(peer);
    if (running !== undefined) return running;
    const attempt = this.#announce(peer).finally(() => this.#inflight.delete(peer));
    this.#inflight.set(peer, attempt);
    return attempt;
  }

  /** The features agreed with `peer`, negotiating first when there are none yet. */
  async ensure(peer: string): Promise<readonly OcpFeature[]> {
    return this.#confirmed.get(peer) ?? (await this.negotiate(peer));
  }

  /**
   * Throws `FeatureNotConfirmed` unless every named recipient confirmed
   * the feature of `type` (negotiating with those not met yet).
   */
  async assertAllowed(to: string | readonly string[], type: string): Promise<void> {
    const feature = featureOf(type);
    if (feature === undefined || to === BROADCAST) return;
    for (const peer of typeof to === "string" ? [to] : to) {
      if (peer === this.#options.identity.id) continue;
      const confirmed = await this.ensure(peer);
      if (!confirmed.includes(feature))
        throw new FeatureNotConfirmed(peer, feature, type, confirmed);
    }
  }

  /** Forgets `peer` (its connection closed): the next send negotiates again. */
  forget(peer: string): void {
    this.#confirmed.delete(peer);
  }

  close(): void {
    this.#off();
    this.#waiters.rejectAll(a2aError("negotiation_failed", "the negotiator closed"));
  }

  async #announce(peer: string): Promise<readonly OcpFeature[]> {
    const message = this.#sign(
      createMessage({
        type: "capability.announce",
        from: this.#options.identity.id,
        to: peer,
        payload: { features: [...this.features], version: PROTOCOL_VERSION },
      }),
    );
    const timeoutMs = this.#options.timeoutMs ?? NEGOTIATION_TIMEOUT_MS;
    const answer = this.#waiters.wait(message.id, timeoutMs, () =>
      a2aError("negotiation_failed", `no capability.confirm from ${peer} within ${timeoutMs} ms`, {
        details: {
          peer,
        },
      }),
    );
    try {
      await this.#options.link.send(message);
    } catch (error) {
      this.#waiters.reject(
        message.id,
        a2aError("negotiation_failed", `capability.announce to ${peer} was not sent`, {
          details: { peer },
          cause: error,
        }),
      );
    }
    const confirm = await answer;
    if (confirm.from !== peer)
      throw a2aError(
        "negotiation_failed",
        `capability.confirm came from ${confirm.from}, not ${peer}`,
        { details: { peer } },
      );
    if (!versionsCompatible(confirm.payload.version, PROTOCOL_VERSION)) {
      throw a2aError("negotiation_failed", `${peer} speaks ${confirm.payload.version}`, {
        details: {
          peer,
          version: confirm.payload.version,
        },
      });
    }
    // Only features this agent announced count, whatever the peer claims.
    const agreed = confirm.payload.supportedFeatures.filter((f) => this.features.includes(f));
    this.#remember(peer, agreed);
    return agreed;
  }

  async #onMessage(m: PlainMessage): Promise<void> {
    if (m.from === this.#options.identity.id) return;
    if (m.type === "capability.confirm") {
      if (m.correlation_id !== undefined)
        this.#waiters.resolve(m.correlation_id, { from: m.from, payload: m.payload });
      return;
    }
    if (m.type !== "capability.announce") return;
    const compatible = versionsCompatible(m.payload.version, PROTOCOL_VERSION);
    const agreed = compatible ? this.features.filter((f) => m.payload.features.includes(f)) : [];
    this.#remember(m.from, agreed);
    const reply = createMessage({
      type: "capability.confirm",
      from: this.#options.identity.id,
      to: m.from,
      correlation_id: m.id,
      payload: { supportedFeatures: agreed, version: PROTOCOL_VERSION },
    });
    await this.#options.link.send(this.#sign(reply));
  }

  #remember(peer: string, features: readonly OcpFeature[]): void {
    this.#confirmed.delete(peer);
    if (this.#confirmed.size >= (this.#options.maxPeers ?? MAX_NEGOTIATED_PEERS)) {
      const oldest = this.#confirmed.keys().next().value;
      if (oldest !== undefined) this.#confirmed.delete(oldest);
    }
    this.#confirmed.set(peer, [...features]);
  }

  #sign<T extends Record<string, unknown>>(message: T): T {
    return signObject(
      message,
      this.#options.identity.secretKey,
      ...(this.#options.ed25519 === undefined ? [] : [this.#options.ed25519]),
    ) as T;
  }
}

/**
 * An `AgentLink` that refuses, with `FeatureNotConfirmed` and before
 * sending, any message to a peer that did not confirm its feature. Give it
 * to an `OCPAgent` in place of the raw link.
 */
export function negotiatedLink(link: AgentLink, negotiator: FeatureNegotiator): AgentLink {
  return {
    lookupKey: link.lookupKey,
    onMessage: (handler) => link.onMessage(handler),
    close: () => {
      negotiator.close();
      return link.close();
    },
    send: async (message) => {
      const type = message["type"];
      const to = message["to"];
      if (typeof type === "string" && (typeof to === "string" || Array.isArray(to))) {
        await negotiator.assertAllowed(to as string | string[], type);
      }
      return link.send(message);
    },
  };
}
