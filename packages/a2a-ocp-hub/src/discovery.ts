/**
 * §7.3 discovery at the hub: the answer to `ocp.hub.discovery.query`. It
 * searches the agents the hub knows — registered here, or (a store shared by
 * several hubs, `watchAgents`) at any hub of the cluster — and returns the
 * signed cards (profiles, as the agents signed them) that match the query and
 * that the asking agent may see by the §8.5 rules, read as for knowledge (see
 * the messaging package's discovery.ts for the card fields). Cards go out in
 * agent id order, at most the query's `limit` and at most
 * {@link HUB_DISCOVERY_MAX_BYTES} of JSON; `truncated` says more matched.
 * `ocp.hub.lookup` applies the same rule ({@link visibleCard}).
 */
import { type AgentProfile, maySee, type VisibilityPolicy } from "@ocp/a2a-ocp-messaging";
import {
  cardAccess,
  cardMatches,
  DISCOVERY_MAX_CARDS,
  type DiscoveryQueryPayload,
} from "@ocp/a2a-ocp-messaging/internal";
import { HUB_DISCOVERY_MAX_BYTES } from "./limits.js";

export interface DiscoveryAnswer {
  cards: AgentProfile[];
  truncated: boolean;
}

/** The cards of `agents` that match `query` and that `requester` may see. */
export function findCards(
  agents: Iterable<{ readonly profile: AgentProfile }>,
  requester: string,
  query: DiscoveryQueryPayload,
  policy: VisibilityPolicy,
): DiscoveryAnswer {
  const limit = Math.min(query.limit ?? DISCOVERY_MAX_CARDS, DISCOVERY_MAX_CARDS);
  const matching: AgentProfile[] = [];
  for (const { profile } of agents) {
    if (!cardMatches(profile, query)) continue;
    if (!maySee(cardAccess(profile), requester, policy)) continue;
    matching.push(profile);
  }
  matching.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const cards: AgentProfile[] = [];
  let bytes = 0;
  for (const card of matching) {
    if (cards.length >= limit) break;
    const size = Buffer.byteLength(JSON.stringify(card), "utf8");
    if (bytes + size > HUB_DISCOVERY_MAX_BYTES) break;
    bytes += size;
    cards.push(card);
  }
  return { cards, truncated: cards.length < matching.length };
}

/** What `ocp.hub.lookup` answers: the whole card, only its key, or nothing (an unknown id). */
export type LookupAnswer = { profile: AgentProfile } | { publicKey: string } | undefined;

/**
 * The answer to `ocp.hub.lookup`: the signed `profile` when `requester` may
 * see the card by the same §8.5 rule as discovery; else only the agent's
 * `publicKey`, so that its messages stay verifiable (a recipient needs the
 * sender's key) while nothing else of a card discovery hides is shown;
 * `undefined` for an id the hub does not know.
 */
export function visibleCard(
  profile: AgentProfile | undefined,
  requester: string,
  policy: VisibilityPolicy,
): LookupAnswer {
  if (profile === undefined) return undefined;
  return maySee(cardAccess(profile), requester, policy)
    ? { profile }
    : { publicKey: profile.publicKey };
}

/** {@link visibleCard} of a profile the hub may still be fetching (a store shared by several hubs). */
export function lookupCard(
  found: AgentProfile | undefined | Promise<AgentProfile | undefined>,
  requester: string,
  policy: () => VisibilityPolicy,
): LookupAnswer | Promise<LookupAnswer> {
  if (!(found instanceof Promise)) return visibleCard(found, requester, policy());
  return found.then((profile) => visibleCard(profile, requester, policy()));
}
