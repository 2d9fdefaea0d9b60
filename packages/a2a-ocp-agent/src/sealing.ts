/**
 * §8.4 what the agent sends sealed (end-to-end encrypted), and the one place
 * it builds, seals, signs and sends a message.
 *
 * Sealed by default: every message whose payload carries a node or edge that
 * is `private` with a `sharedWith`, for exactly the agents allowed to read
 * every such item (its author and `sharedWith`); and, when marked sensitive
 * (the per-call `sensitive`, else the agent's `sealDirect`), a message to
 * named agents, for them. Consensus messages are never sealed for being
 * sensitive: their signed form is the evidence other agents check.
 *
 * The sealed message declares in its signed envelope field `ocpSealed` its
 * recipients and the access fields of what it carries, so the hub applies
 * §8.5 without reading it (docs/a2a-ocp-wire.md, "End-to-end encryption").
 * A recipient without a verified encryption key stops the send
 * (`sealing_key_unknown`); nothing goes in clear.
 */
import {
  type AgentIdentity,
  BROADCAST,
  type KnownMessageType,
  type MessageOf,
  type PayloadInit,
  type PlainMessage,
  signedMessage,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import {
  SEALED_ENVELOPE_FIELD,
  sealedAccessOf,
  sealedReaders,
} from "@ocp/a2a-ocp-messaging/internal";
import { encryptMessage } from "@ocp/a2a-ocp-messaging/node";
import type { OCPAgentOptions } from "./agent-types.js";
import { OutboundCompression } from "./compression.js";
import type { SendOptions } from "./context.js";
import { agentError } from "./errors.js";
import { messageTtl } from "./lifetimes.js";
import type { AgentLink } from "./link.js";
import { RecipientKeys } from "./sealing-keys.js";
import { Opener } from "./unsealing.js";

/** Per-call options of a send, with §8.4 `sensitive`. */
export interface SealingSendOptions extends SendOptions {
  /** Seal this message to named agents (default: the agent's `sealDirect`). */
  readonly sensitive?: boolean;
}

/** Whom `message` must be sealed for, or `undefined` to send it readable. */
export function sealingPlan(
  message: PlainMessage,
  sensitive: boolean,
): { recipients: string[]; access: ReturnType<typeof sealedAccessOf> } | undefined {
  const access = sealedAccessOf(message.type, message.from, message.payload);
  const readers = sealedReaders(access);
  const named =
    message.to === BROADCAST ? [] : typeof message.to === "string" ? [message.to] : [...message.to];
  if (readers !== undefined) {
    for (const agent of named) {
      if (!readers.includes(agent)) {
        throw agentError(
          "sealed_recipient_not_allowed",
          `${agent} may not read a private node this message carries`,
          { details: { agent } },
        );
      }
    }
    return { recipients: readers, access };
  }
  if (!sensitive || message.type.startsWith("ocp.consensus.")) return undefined;
  if (named.length === 0) {
    throw agentError("sealed_broadcast", "a sensitive message must name its recipients");
  }
  return { recipients: [...new Set(named)].sort(), access };
}

/** Builds, seals where it must, signs and sends what an agent sends. */
export class Outbound {
  readonly #identity: AgentIdentity;
  readonly #link: AgentLink;
  readonly #keys: RecipientKeys;
  readonly #now: () => number;
  readonly #sealDirect: boolean;
  readonly #compression: OutboundCompression;

  constructor(
    identity: AgentIdentity,
    link: AgentLink,
    keys: RecipientKeys,
    now: () => number,
    sealDirect: boolean,
    compression: OutboundCompression,
  ) {
    this.#compression = compression;
    this.#identity = identity;
    this.#link = link;
    this.#keys = keys;
    this.#now = now;
    this.#sealDirect = sealDirect;
  }

  /** Resolves with the signed readable message (what the agent keeps) once the link took it. */
  async send<T extends KnownMessageType>(
    type: T,
    to: string | string[],
    payload: PayloadInit<T>,
    options: SealingSendOptions = {},
  ): Promise<MessageOf<T>> {
    const { correlationId, deadline, priority, sensitive } = options;
    // What the agent keeps: the readable message, built and signed by the message layer.
    const signed = signedMessage(this.#identity, {
      type,
      to,
      payload,
      ttl: messageTtl(type, this.#now(), deadline),
      ...(correlationId === undefined ? {} : { correlation_id: correlationId }),
      ...(priority === undefined ? {} : { priority }),
    });
    const readable: PlainMessage = signed;
    const plan = sealingPlan(readable, sensitive ?? this.#sealDirect);
    if (plan === undefined) {
      // §12.2: a readable message may go compressed; a sealed one never does.
      const prepared = await this.#compression.prepare(readable);
      await this.#link.send(
        prepared === readable ? signed : signObject(prepared, this.#identity.secretKey),
      );
      return signed;
    }
    const keys = await this.#keys.recipients(plan.recipients);
    const declared: PlainMessage = { ...readable, [SEALED_ENVELOPE_FIELD]: plan };
    await this.#link.send(signObject(encryptMessage(declared, keys), this.#identity.secretKey));
    return signed;
  }
}

/** An agent's sending and opening sides of §8.4, from its options. */
export function sealing(
  options: OCPAgentOptions,
  now: () => number,
): { outbound: Outbound; opener: Opener } {
  const { identity, link } = options;
  const keys = new RecipientKeys(identity, link.findAgents?.bind(link), now);
  return {
    outbound: new Outbound(
      identity,
      link,
      keys,
      now,
      options.sealDirect ?? false,
      new OutboundCompression(link, options.compression, now),
    ),
    opener: new Opener({
      agentId: identity.id,
      secretKey: identity.encryption?.secretKey,
      retired: options.retiredEncryptionKeys ?? [],
      lookupKey: link.lookupKey,
      now,
    }),
  };
}
