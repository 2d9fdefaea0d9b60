/**
 * §7.3 discovery at the hub. An agent puts its agent card in its signed
 * profile ({@link profileWithCard}, field {@link CARD_PROFILE_FIELD}); the
 * hub verifies the profile when the agent registers and keeps it in its
 * store, so the hub holds the card of every registered agent, authenticated
 * by the agent's key. {@link AgentDirectory} answers `findAgents` from those
 * cards.
 */
import type { AgentIdentity, AgentProfile, OcpFeature } from "@ocp/a2a-ocp-messaging";
import { createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import {
  AgentCardSchema,
  cardJson,
  declaredFeatures,
  type OcpAgentCard,
  ocpDeclarationOf,
  type ParsedAgentCard,
  protocolsOf,
} from "./card.js";
import { MAX_DISCOVERY_RESULTS } from "./limits.js";

/** The profile field that carries the agent card (in its JSON form, {@link cardJson}). */
export const CARD_PROFILE_FIELD = "agentCard";

/** A signed profile of `identity` that carries `card` (pass it as `HubClientOptions.profile`). */
export function profileWithCard(
  identity: AgentIdentity,
  card: OcpAgentCard,
  options: { name?: string } = {},
): AgentProfile {
  return createAgentProfile(
    identity,
    {
      ...(options.name === undefined ? {} : { name: options.name }),
      extra: { [CARD_PROFILE_FIELD]: cardJson(card) },
    },
    nativeEd25519,
  );
}

/** §7.3 query: every listed protocol and feature must be supported; `workspace` must match. */
export interface DiscoveryQuery {
  protocols?: readonly string[];
  features?: readonly OcpFeature[];
  workspace?: string;
  /** Only agents connected to the hub now. */
  connectedOnly?: boolean;
  limit?: number;
}

/** An agent as discovery describes it. */
export interface DiscoveredAgent {
  id: string;
  name: string | undefined;
  protocols: string[];
  features: OcpFeature[];
  workspace: string | undefined;
  connected: boolean;
  /** The card from its profile (unknown fields kept), when it published one. */
  card: ParsedAgentCard | undefined;
}

/** Where the directory reads registered agents: an `OCPHub` fits. */
export interface DirectorySource {
  readonly store: { agents(): Promise<AgentProfile[]> };
  connectedAgents(): string[];
}

/** The hub's registry of agent cards. */
export class AgentDirectory {
  readonly #source: DirectorySource;

  constructor(source: DirectorySource) {
    this.#source = source;
  }

  /** Every registered agent, in id order. */
  async agents(): Promise<DiscoveredAgent[]> {
    const connected = new Set(this.#source.connectedAgents());
    return (await this.#source.store.agents()).map((profile) =>
      describe(profile, connected.has(profile.id)),
    );
  }

  async getAgent(id: string): Promise<DiscoveredAgent | undefined> {
    return (await this.agents()).find((a) => a.id === id);
  }

  /** The raw card `id` registered, for a `CardResolver` `lookup`. */
  async cardOf(id: string): Promise<Record<string, unknown> | undefined> {
    return (await this.getAgent(id))?.card;
  }

  /** §7.3 `findAgents({ protocols, features, workspace })`. */
  async findAgents(query: DiscoveryQuery = {}): Promise<DiscoveredAgent[]> {
    const limit = Math.min(query.limit ?? MAX_DISCOVERY_RESULTS, MAX_DISCOVERY_RESULTS);
    return (await this.agents())
      .filter(
        (a) =>
          (query.protocols ?? []).every((p) => a.protocols.includes(p)) &&
          (query.features ?? []).every((f) => a.features.includes(f)) &&
          (query.workspace === undefined || a.workspace === query.workspace) &&
          (query.connectedOnly !== true || a.connected),
      )
      .slice(0, limit);
  }
}

function describe(profile: AgentProfile, connected: boolean): DiscoveredAgent {
  const parsed = AgentCardSchema.safeParse(profile[CARD_PROFILE_FIELD]);
  // A card that names another agent is ignored: the profile's signature vouches for the profile's id only.
  const card =
    parsed.success && (parsed.data.id === undefined || parsed.data.id === profile.id)
      ? parsed.data
      : undefined;
  if (card === undefined) {
    return {
      id: profile.id,
      name: profile.name,
      protocols: [...(profile.protocols ?? ["a2a"])],
      features: [],
      workspace: undefined,
      connected,
      card: undefined,
    };
  }
  const ocp = ocpDeclarationOf(card);
  return {
    id: profile.id,
    name: card.name,
    protocols: protocolsOf(card),
    features: ocp === undefined ? [] : declaredFeatures(ocp),
    workspace: ocp?.workspace,
    connected,
    card,
  };
}
