/**
 * The hub as a party of its own: an Ed25519 identity (given, or generated at
 * start), a signed profile agents learn from the `ocp.connection.ack` and
 * `ocp.connection.registered` frames (`payload.hub`) and from
 * `ocp.hub.lookup`, and the messages the hub itself signs:
 *
 * - §7.2 `capability.confirm`, answering a `capability.announce` addressed to
 *   the hub: the announced features the hub supports;
 * - §5.5.4 `ocp.event.notification`, one per matching subscription, carrying
 *   the publish's payload as `event` and the original signed publish as
 *   `ocpPublish` (an extension field, §11.2), so the publisher's signature
 *   stays verifiable end to end.
 */
import {
  type AgentIdentity,
  type AgentProfile,
  BROADCAST,
  createAgentProfile,
  type EventPublishPayload,
  generateIdentity,
  type MessageDraft,
  OCP_FEATURES,
  type OcpFeature,
  PROTOCOL_VERSION,
  signedMessage,
  type WireMessage,
} from "@ocp/a2a-ocp-messaging";
import { featureOfType } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import {
  CapabilityAnnouncePayloadSchema,
  EventPublishPayloadSchema,
} from "@ocp/a2a-ocp-messaging/schemas";

/** The hub's agent URI when no identity is given. */
export const DEFAULT_HUB_ID = "a2a://ocp-hub";

/** The extension field of a notification that carries the original signed publish. */
export const NOTIFICATION_PUBLISH_FIELD = "ocpPublish";

export class HubSelf {
  readonly identity: AgentIdentity;
  readonly profile: AgentProfile;
  /** The §7.1 features this hub supports (confirmed to agents that announce them). */
  readonly features: readonly OcpFeature[];

  constructor(options: { identity?: AgentIdentity; features?: readonly OcpFeature[] } = {}) {
    this.identity = options.identity ?? generateIdentity(DEFAULT_HUB_ID);
    this.profile = createAgentProfile(
      this.identity,
      { name: "OCP hub", extra: { role: "hub" } },
      nativeEd25519,
    );
    this.features = options.features ?? OCP_FEATURES;
  }

  get id(): string {
    return this.identity.id;
  }

  /** `payload.hub` of the ack and registered frames: how agents learn the hub's key. */
  describe(): Record<string, unknown> {
    return { hub: { id: this.id, publicKey: this.profile.publicKey, profile: this.profile } };
  }

  /**
   * The answer to a `capability.announce` from `from` (message `id`): the
   * signed `capability.confirm` and the features confirmed, or `undefined`
   * when the payload is not a valid announce.
   */
  confirm(
    announce: { id: string; from: string; reply_to?: string | undefined },
    payload: unknown,
  ): { raw: string; confirmed: Set<string> } | undefined {
    const parsed = CapabilityAnnouncePayloadSchema.safeParse(payload);
    if (!parsed.success) return undefined;
    const supported = parsed.data.features.filter((f) => this.features.includes(f));
    const raw = this.#sign({
      type: "capability.confirm",
      to: announce.from,
      correlation_id: announce.id,
      payload: { supportedFeatures: supported, version: PROTOCOL_VERSION },
    });
    return { raw, confirmed: new Set(supported) };
  }

  /** The signed notification of `publish` (its parsed JSON) for one subscription of `to`. */
  notification(
    to: string,
    subscriptionId: string,
    publish: Record<string, unknown>,
    event: EventPublishPayload,
  ): string {
    return this.#sign({
      type: "ocp.event.notification",
      to,
      correlation_id: String(publish["id"]),
      payload: { subscriptionId, event, [NOTIFICATION_PUBLISH_FIELD]: publish },
    });
  }

  #sign<T extends "capability.confirm" | "ocp.event.notification">(draft: MessageDraft<T>): string {
    return JSON.stringify(signedMessage(this.identity, draft, { backend: nativeEd25519 }));
  }
}

/**
 * §7.2 after negotiation: why a message of `type` is refused when its feature
 * was not confirmed to the sender; `undefined` when it may pass (no
 * negotiation yet, a confirmed feature, or a type that needs none).
 */
export function unconfirmedFeature(
  confirmed: ReadonlySet<string> | undefined,
  type: string,
): { message: string; details: Record<string, unknown> } | undefined {
  const feature = featureOfType(type);
  if (feature === undefined || confirmed === undefined || confirmed.has(feature)) return undefined;
  return {
    message: `${type} needs the feature ${feature}, which the hub did not confirm to this agent (§7.2)`,
    details: { feature, confirmed: [...confirmed] },
  };
}

/**
 * What each recipient of a transient message gets: the sender's exact text;
 * for a broadcast `ocp.event.publish` with a readable payload, one
 * hub-signed `ocp.event.notification` per matching subscription (§5.5.4).
 */
export function transientSends(
  self: HubSelf,
  message: { wire: WireMessage; json: Record<string, unknown>; payload: unknown; raw: string },
  recipients: readonly string[],
  subscriptions: { match: (event: EventPublishPayload) => Map<string, string[]> },
): Array<[string, Buffer]> {
  const { wire, json, payload, raw } = message;
  // The readable payload of a broadcast publish (inflated if it came compressed), read by its schema.
  const event =
    wire.type === "ocp.event.publish" && wire.to === BROADCAST && payload !== undefined
      ? EventPublishPayloadSchema.safeParse(payload)
      : undefined;
  if (event === undefined || !event.success) {
    const bytes = Buffer.from(raw, "utf8");
    return recipients.map((agent) => [agent, bytes]);
  }
  const matched = subscriptions.match(event.data);
  const sends: Array<[string, Buffer]> = [];
  for (const agent of recipients) {
    for (const subscriptionId of matched.get(agent) ?? []) {
      const note = self.notification(agent, subscriptionId, json, event.data);
      sends.push([agent, Buffer.from(note, "utf8")]);
    }
  }
  return sends;
}
