import type { FindAgentsQuery, FindAgentsResult } from "@ocp/a2a-ocp-client";
import type { AgentProfile, PlainMessage, WireMessage } from "@ocp/a2a-ocp-messaging";
import {
  BROADCAST,
  type KeyLookup,
  type VisibilityPolicy,
  verifyAgentProfile,
  verifyMessage,
} from "@ocp/a2a-ocp-messaging";
import { cardMatches } from "@ocp/a2a-ocp-messaging/internal";
import type { OcpError } from "@ocp/types";

/**
 * What an {@link OCPAgent} needs from its connection: send a signed message
 * (resolved when the hub acknowledged it), receive verified messages, and
 * find a sender's public key (to check the signed votes an
 * `ocp.consensus.achieved` carries). `hubLink(client)` adapts a `HubClient`;
 * {@link MemoryNetwork} links agents in one process (unit tests, examples).
 */
export interface AgentLink {
  send(message: WireMessage): Promise<unknown>;
  /**
   * Registers the handler of verified inbound messages; returns its remover.
   * A sealed message (§8.4, `encrypted: true`) is handed on as it came.
   */
  onMessage(handler: (message: PlainMessage) => void): () => void;
  readonly lookupKey: KeyLookup;
  /** §7.3 discovery, where the link has a directory (a hub); absent on links without one. */
  findAgents?(query: FindAgentsQuery): Promise<FindAgentsResult>;
  /**
   * §8.5 as the far side applies it (a listener's: teams from its allow
   * list); an agent on this link uses it unless given `visibility`.
   */
  readonly visibility?: VisibilityPolicy;
  /**
   * The signed cards of the agents this link reaches, where it knows them
   * without a directory (a peer listener: its peers'); else `findAgents`.
   */
  cards?(): Promise<readonly unknown[]>;
  /**
   * Registers the handler of inbound messages the link refused before they
   * reached `onMessage` (a corrupt or oversized compressed payload, ...),
   * each a typed error with its named `code`; returns its remover.
   */
  onRefused?(handler: (error: OcpError) => void): () => void;
  close(): Promise<void>;
}

/**
 * An in-process network: direct, multicast and broadcast (never back to the
 * sender), every message verified against the registered keys on receipt,
 * delivered asynchronously in send order.
 */
export class MemoryNetwork {
  readonly #keys = new Map<string, Uint8Array>();
  readonly #handlers = new Map<string, Set<(message: PlainMessage) => void>>();
  readonly #profiles = new Map<string, AgentProfile>();
  readonly lookupKey: KeyLookup = (id) => this.#keys.get(id);

  /**
   * A link for `agentId`, whose messages verify with `publicKey`; its signed
   * `profile`, when given and valid, is what `findAgents` returns for it
   * (where §8.4 sealing finds its encryption key).
   */
  link(agentId: string, publicKey: Uint8Array, profile?: unknown): AgentLink {
    this.#keys.set(agentId, publicKey);
    const verified = profile === undefined ? undefined : verifyAgentProfile(profile);
    if (verified?.ok === true && verified.value.id === agentId) {
      this.#profiles.set(agentId, verified.value);
    }
    const handlers = new Set<(message: PlainMessage) => void>();
    this.#handlers.set(agentId, handlers);
    return {
      lookupKey: this.lookupKey,
      send: async (message) => {
        const raw = JSON.stringify(message);
        const to = message["to"];
        const recipients =
          to === BROADCAST
            ? [...this.#handlers.keys()].filter((id) => id !== agentId)
            : typeof to === "string"
              ? [to]
              : (to as string[]);
        for (const recipient of recipients) {
          const target = this.#handlers.get(recipient);
          if (target === undefined) continue;
          // A copy per recipient, as a wire would give: the sender's object is never shared.
          const copy: PlainMessage = JSON.parse(raw);
          setTimeout(() => {
            void verifyMessage(copy, this.lookupKey).then((verified) => {
              if (!verified.ok) return;
              for (const handler of target) handler(copy);
            });
          }, 0);
        }
        return { recipients: recipients.length };
      },
      // A directory only for an agent that published its profile (none: `discovery_unavailable`).
      ...(this.#profiles.has(agentId)
        ? {
            findAgents: async (query: FindAgentsQuery) => ({
              agents: [...this.#profiles.values()].filter((card) =>
                cardMatches(card, { queryId: "", ...query }),
              ),
              truncated: false,
              unverified: 0,
            }),
          }
        : {}),
      onMessage: (handler) => {
        handlers.add(handler);
        return () => handlers.delete(handler);
      },
      close: async () => {
        this.#handlers.delete(agentId);
      },
    };
  }
}
