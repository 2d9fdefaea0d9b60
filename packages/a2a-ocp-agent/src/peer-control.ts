/**
 * The control frames a peer sends a listening agent (`ocp.hub.*`), answered
 * as a hub answers them: `ocp.hub.lookup` with a signed profile, and §7.3
 * `ocp.hub.discovery.query` with the cards that match. Both obey §8.5 as for
 * a knowledge node whose `createdBy` is the card's agent (the card's own
 * `visibility` and `sharedWith`; `team` from the listener's allow list): a
 * card the asker may not see is neither found nor looked up. The listener's
 * own card is always answered (it comes with the registration frame too).
 *
 * Every peer has a budget per agent id, kept across reconnects: at most
 * {@link PEER_CONTROL_FRAMES_PER_MINUTE} control frames a minute (malformed
 * ones count), of which at most {@link PEER_DISCOVERY_QUERIES_PER_MINUTE}
 * discovery queries. Over budget, or malformed, a frame is answered with
 * `ocp.hub.reject` (`rate_limited`, `hub_frame_invalid`; a discovery query's
 * reject carries its `queryId` as `id`).
 */
import { type AgentProfile, maySee, type VisibilityPolicy } from "@ocp/a2a-ocp-messaging";
import {
  cardAccess,
  cardMatches,
  DISCOVERY_MAX_CARDS,
  type DiscoveryQueryPayload,
  encodeHubControl,
  HUB_TYPES,
} from "@ocp/a2a-ocp-messaging/internal";
import { AgentControlSchema } from "@ocp/a2a-ocp-messaging/schemas";
import { parseJsonText } from "@ocp/types/internal";
import {
  PEER_CONTROL_FRAMES_PER_MINUTE,
  PEER_DISCOVERY_MAX_BYTES,
  PEER_DISCOVERY_QUERIES_PER_MINUTE,
} from "./limits.js";

const MINUTE_MS = 60_000;

/** A fixed one-minute window of uses per agent id. */
class Budget {
  readonly #windows = new Map<string, { start: number; used: number }>();
  constructor(private readonly perMinute: number) {}

  take(agentId: string, now: number): boolean {
    let window = this.#windows.get(agentId);
    if (window === undefined || now - window.start >= MINUTE_MS) {
      window = { start: now, used: 0 };
      this.#windows.set(agentId, window);
    }
    if (window.used >= this.perMinute) return false;
    window.used += 1;
    return true;
  }

  forget(agentId: string): void {
    this.#windows.delete(agentId);
  }
}

export interface PeerControlContext {
  readonly listenerId: string;
  readonly listenerProfile: AgentProfile;
  /** The cards of the admitted peers (their latest verified profiles). */
  cards(): Iterable<AgentProfile>;
  profileOf(agentId: string): AgentProfile | undefined;
  readonly policy: VisibilityPolicy;
  now(): number;
}

/** The cards of `cards` that match `query` and that `asker` may see, in agent id order, bounded. */
export function findPeerCards(
  cards: Iterable<AgentProfile>,
  asker: string,
  query: DiscoveryQueryPayload,
  policy: VisibilityPolicy,
): { cards: AgentProfile[]; truncated: boolean } {
  const limit = Math.min(query.limit ?? DISCOVERY_MAX_CARDS, DISCOVERY_MAX_CARDS);
  const matching = [...cards]
    .filter((card) => cardMatches(card, query) && maySee(cardAccess(card), asker, policy))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const out: AgentProfile[] = [];
  let bytes = 0;
  for (const card of matching) {
    if (out.length >= limit) break;
    const size = Buffer.byteLength(JSON.stringify(card), "utf8");
    if (bytes + size > PEER_DISCOVERY_MAX_BYTES) break;
    bytes += size;
    out.push(card);
  }
  return { cards: out, truncated: out.length < matching.length };
}

function reject(code: string, message: string, id?: string): string {
  return encodeHubControl(
    HUB_TYPES.REJECT,
    id === undefined ? { code, message } : { id, code, message },
  );
}

function queryIdOf(value: unknown): string | undefined {
  const frame = value as { type?: unknown; payload?: { queryId?: unknown } } | undefined;
  if (frame?.type !== HUB_TYPES.DISCOVERY_QUERY) return undefined;
  const queryId = frame.payload?.queryId;
  return typeof queryId === "string" && queryId.length <= 128 ? queryId : undefined;
}

export class PeerControl {
  readonly #frames = new Budget(PEER_CONTROL_FRAMES_PER_MINUTE);
  readonly #discovery = new Budget(PEER_DISCOVERY_QUERIES_PER_MINUTE);

  constructor(private readonly ctx: PeerControlContext) {}

  /** The answer to control frame `raw` from peer `asker` (undefined: nothing to answer). */
  answer(asker: string, raw: string): string | undefined {
    const json = parseJsonText(raw);
    const value = json.ok ? json.value : undefined;
    const queryId = queryIdOf(value);
    if (!this.#frames.take(asker, this.ctx.now()))
      return reject(
        "rate_limited",
        "too many control frames: at most PEER_CONTROL_FRAMES_PER_MINUTE",
        queryId,
      );
    const parsed = AgentControlSchema.safeParse(value);
    if (!parsed.success)
      return reject("hub_frame_invalid", "malformed or unknown hub control frame", queryId);
    const frame = parsed.data;
    if (frame.type === HUB_TYPES.DELIVERED) return undefined; // The listener sends no durable deliveries.
    if (frame.type === HUB_TYPES.DISCOVERY_QUERY) {
      if (!this.#discovery.take(asker, this.ctx.now()))
        return reject(
          "rate_limited",
          "too many discovery queries: at most PEER_DISCOVERY_QUERIES_PER_MINUTE",
          frame.payload.queryId,
        );
      const all = [this.ctx.listenerProfile, ...this.ctx.cards()];
      const answer = findPeerCards(all, asker, frame.payload, this.ctx.policy);
      return encodeHubControl(HUB_TYPES.DISCOVERY_RESULT, {
        queryId: frame.payload.queryId,
        ...answer,
      });
    }
    const agentId = frame.payload.agentId;
    const profile =
      agentId === this.ctx.listenerId ? this.ctx.listenerProfile : this.ctx.profileOf(agentId);
    const visible =
      profile !== undefined &&
      (agentId === this.ctx.listenerId || maySee(cardAccess(profile), asker, this.ctx.policy));
    return encodeHubControl(HUB_TYPES.PROFILE, visible ? { agentId, profile } : { agentId });
  }

  /** Drops the budget of a peer no longer admitted. */
  forget(agentId: string): void {
    this.#frames.forget(agentId);
    this.#discovery.forget(agentId);
  }
}
