import type {
  KeyLookup,
  KnowledgeNode,
  KnownMessageType,
  MessageOf,
  PayloadInit,
} from "@ocp/a2a-ocp-messaging";
import type { KnowledgeGraph } from "./graph.js";

/** What the agent's services share: identity, graph, and a signed send. */
export interface AgentContext {
  readonly id: string;
  readonly graph: KnowledgeGraph;
  readonly lookupKey: KeyLookup;
  /** Builds, signs and sends a message; resolves with the signed message once the hub acknowledged it. */
  send<T extends KnownMessageType>(
    type: T,
    to: string | string[],
    payload: PayloadInit<T>,
    correlationId?: string,
  ): Promise<MessageOf<T>>;
  now(): number;
  /** §8.5 whether `recipient` may see `node` (the same rules the hub enforces). */
  maySee(node: KnowledgeNode, recipient: string): boolean;
}
