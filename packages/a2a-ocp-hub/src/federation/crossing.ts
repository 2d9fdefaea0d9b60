/**
 * The one rule of what may cross an organisation's boundary, applied by the
 * sending hub to each remote recipient and again by the receiving hub to each
 * of its own agents: every knowledge node (or node-shaped object, at any
 * depth: `accessControlledNodes`) a message carries must be `public`, or name
 * the recipient in `sharedWith`, or be the recipient's own. `team`,
 * `workspace` and `private` never cross, whatever the hub's default (an
 * absent `visibility` reads as the hub's default, so it crosses only when
 * that default is `public`). A sealed message crosses only to an agent it is
 * addressed to by name (it is encrypted to that agent's key). A card crosses
 * only when it is public. Transient traffic (awareness) never crosses;
 * collective queries only to a peer that opted in; event subscriptions only
 * to a peer that opted in to events, and an event only as the hub-signed
 * notification of a subscription (events.ts), its nodes by the same rule.
 */
import {
  BROADCAST,
  type NodeAccess,
  type Visibility,
  type VisibilityPolicy,
} from "@ocp/a2a-ocp-messaging";
import { accessControlledNodes, cardAccess } from "@ocp/a2a-ocp-messaging/internal";
import { isDurable } from "../router.js";

/** A message as crossing reads it. */
export interface CrossingMessage {
  from: string;
  to: string | readonly string[];
  type: string;
  encrypted?: boolean | undefined;
}

/** Collective query types (§5.4): cross only to and from a peer with `queries: true`. */
export function isQueryType(type: string): boolean {
  return type.startsWith("ocp.collective.");
}

/** Event subscription types (§5.5): cross only to and from a peer with `events: true`. */
export function isSubscriptionType(type: string): boolean {
  return type === "ocp.event.subscribe" || type === "ocp.event.unsubscribe";
}

function levelOf(node: NodeAccess, defaultVisibility: Visibility): string {
  return String(node.visibility ?? defaultVisibility);
}

/**
 * Whether `message` (readable `payload`, `undefined` when sealed) may reach
 * `recipient`, an agent of the other organisation: `undefined` when it may,
 * else the reason it is withheld.
 */
export function withheldFrom(
  message: CrossingMessage,
  payload: unknown,
  recipient: string,
  policy: Pick<VisibilityPolicy, "defaultVisibility">,
  queries: boolean,
): string | undefined {
  if (isQueryType(message.type)) {
    if (!queries) return `${message.type} does not cross: collective queries are not opted in`;
  } else if (!isDurable(message)) {
    return `${message.type} broadcasts do not cross (transient)`;
  }
  if (message.encrypted === true || payload === undefined) {
    const named = message.to !== BROADCAST && [message.to].flat().includes(recipient);
    return named ? undefined : "a sealed message crosses only to an agent it names";
  }
  return nodesWithheld(message, payload, recipient, policy);
}

/**
 * The node part of the rule alone: why a readable `payload` of `message` may
 * not reach `recipient` of the other organisation (a node that is not
 * public, shared with it or its own); `undefined` when every node may.
 */
export function nodesWithheld(
  message: Pick<CrossingMessage, "from" | "type">,
  payload: unknown,
  recipient: string,
  policy: Pick<VisibilityPolicy, "defaultVisibility">,
): string | undefined {
  for (const node of accessControlledNodes(message.type, message.from, payload)) {
    if (node.createdBy === recipient) continue;
    if (node.sharedWith?.includes(recipient) === true) continue;
    const level = levelOf(node, policy.defaultVisibility);
    if (level === "public") continue;
    return `a ${level} node of ${node.createdBy} never leaves its organisation`;
  }
  return undefined;
}

/** Whether an agent's card may be shown to other organisations (a public card). */
export function cardCrosses(card: { id: string } & Record<string, unknown>): boolean {
  return cardAccess(card).visibility === "public";
}
