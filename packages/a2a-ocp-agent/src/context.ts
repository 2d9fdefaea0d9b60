import type {
  KeyLookup,
  KnowledgeNode,
  KnownMessageType,
  MessageOf,
  PayloadInit,
} from "@ocp/a2a-ocp-messaging";
import type { ItemSigner, KnowledgeGraph } from "./graph.js";

/** How a message is sent, besides its type, recipients and payload. */
export interface SendOptions {
  readonly correlationId?: string;
  /**
   * Epoch ms the message is needed until, for the kinds that live until a
   * deadline (a proposal and its votes, a collective query and its
   * responses): its `ttl` follows from it (see `lifetimes.ts`).
   */
  readonly deadline?: number;
  /** The envelope `priority` (hubs order queued deliveries by it). */
  readonly priority?: "low" | "normal" | "high" | "urgent";
}

/** What the agent's services share: identity, graph, and a signed send. */
export interface AgentContext {
  readonly id: string;
  readonly graph: KnowledgeGraph;
  readonly lookupKey: KeyLookup;
  /** Signs a node or edge version this agent writes as its author or editor (`ocpAuthorship`). */
  readonly signItem: ItemSigner;
  /**
   * Builds (with the `ttl` its type's lifetime gives), signs and sends a
   * message; resolves with the signed message once the hub acknowledged it
   * (as sent: a stream, sync page or answer may be §12.2-compressed).
   */
  send<T extends KnownMessageType>(
    type: T,
    to: string | string[],
    payload: PayloadInit<T>,
    options?: SendOptions,
  ): Promise<MessageOf<T>>;
  now(): number;
  /** §8.5 whether `recipient` may see `node` (the same rules the hub enforces). */
  maySee(node: KnowledgeNode, recipient: string): boolean;
}
