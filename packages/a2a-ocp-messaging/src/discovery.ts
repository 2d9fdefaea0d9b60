/**
 * §7.3 discovery: which agent cards match a `findAgents` query, and who may
 * see a card. A card is the agent's self-signed profile (§8.1); the fields
 * discovery reads, all optional, are the ones §7.1 and §8.5 name:
 *
 * - `protocols` (top level, as in our profiles) and `capabilities.protocols`
 *   (§7.1's place): the protocols the agent speaks;
 * - `capabilities.ocp.features` (§7.1): its OCP features;
 * - `workspace`: the workspace it belongs to (§7.3's query key);
 * - `team`, `visibility`, `sharedWith`: who may find it, read exactly as for
 *   a knowledge node whose `createdBy` is the agent itself (§8.5).
 *
 * Every criterion a query gives must hold: each listed protocol and feature
 * is among the card's, and `workspace` equals the card's. An absent
 * criterion matches every card.
 */
import type { DiscoveryQueryPayload } from "./hub-protocol.js";
import type { Visibility } from "./payloads/knowledge.js";
import type { NodeAccess } from "./visibility.js";

type Card = Record<string, unknown>;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function objectAt(value: unknown, key: string): Card | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const member = (value as Card)[key];
  return typeof member === "object" && member !== null && !Array.isArray(member)
    ? (member as Card)
    : undefined;
}

/** The protocols a card declares (top-level `protocols` and §7.1 `capabilities.protocols`). */
export function cardProtocols(card: unknown): string[] {
  const top = typeof card === "object" && card !== null ? (card as Card)["protocols"] : undefined;
  return [...new Set([...strings(top), ...strings(objectAt(card, "capabilities")?.["protocols"])])];
}

/** The OCP features a card declares (§7.1 `capabilities.ocp.features`). */
export function cardFeatures(card: unknown): string[] {
  return strings(objectAt(objectAt(card, "capabilities"), "ocp")?.["features"]);
}

/** Whether `card` meets every criterion of `query`. */
export function cardMatches(card: unknown, query: DiscoveryQueryPayload): boolean {
  if (typeof card !== "object" || card === null) return false;
  if (query.workspace !== undefined && (card as Card)["workspace"] !== query.workspace) {
    return false;
  }
  if (query.protocols !== undefined && query.protocols.length > 0) {
    const have = cardProtocols(card);
    if (!query.protocols.every((p) => have.includes(p))) return false;
  }
  if (query.features !== undefined && query.features.length > 0) {
    const have = cardFeatures(card);
    if (!query.features.every((f) => have.includes(f))) return false;
  }
  return true;
}

/**
 * The §8.5 access fields of a card: the agent is the card's author; its
 * `visibility` and `sharedWith` are read as a knowledge node's (a value that
 * is not one of the four levels is seen by nobody else: fail closed).
 */
export function cardAccess(card: { id: string } & Record<string, unknown>): NodeAccess {
  const sharedWith = card["sharedWith"];
  return {
    createdBy: card.id,
    visibility: card["visibility"] as Visibility | undefined,
    sharedWith: Array.isArray(sharedWith)
      ? sharedWith.filter((agent): agent is string => typeof agent === "string")
      : undefined,
  };
}
