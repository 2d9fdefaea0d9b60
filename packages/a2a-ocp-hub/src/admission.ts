/**
 * Admission of an announcement (§6.4): the signature over the nonce, the
 * allow-list and `allow` policy, the key an agent id is pinned to, and never
 * the hub's own id. Saves a new or newer profile.
 *
 * Membership is granted here, not claimed: an agent's team is the one its
 * entry in the operator's allow-list gives ({@link allowList}), whatever the
 * profile it announces says; without an allow-list nobody has a team.
 */
import { type AgentProfile, verifyAgentProfile } from "@ocp/a2a-ocp-messaging";
import { verifyAnnouncement } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { z } from "zod";
import { declaredLimits } from "./agent-limits.js";
import { type KnownAgents, profileOf } from "./cluster.js";
import type { HubStore } from "./store.js";

export interface AdmissionContext {
  known: KnownAgents;
  store: HubStore;
  /** Agent id → key and team, when an allow-list is set ({@link allowList}). */
  allowed: AllowList | undefined;
  allow: ((profile: AgentProfile) => boolean) | undefined;
  hubId: string;
}

export type Admission =
  | { refused: string; kind?: "registration" }
  | ({ agentId: string } & Announced);

/** What an admitted agent's announcement asked for. */
export interface Announced {
  lastSeq: number | undefined;
  priorityOrder: boolean;
  /** It exchanges trace contexts in hub frames (`ocpTrace`, telemetry.ts). */
  trace: boolean;
}

export async function admit(
  announcement: unknown,
  nonce: string,
  o: AdmissionContext,
): Promise<Admission> {
  const verified = verifyAnnouncement(announcement, nonce, nativeEd25519);
  if (!verified.ok) return { refused: verified.error.message };
  const { profile, lastSeq, priorityOrder, trace } = verified.value;
  const refuse = (refused: string): Admission => ({ refused, kind: "registration" });
  if (profile.id === o.hubId) return refuse(`${profile.id} is the hub's own id`);
  if (o.allowed !== undefined && o.allowed.get(profile.id)?.publicKey !== profile.publicKey) {
    return refuse(`${profile.id} is not on the hub's allow-list`);
  }
  if (o.allow !== undefined && !o.allow(profile)) return refuse(`${profile.id} is not admitted`);
  const refusal = o.store.refuses?.(profile);
  if (refusal !== undefined) return refuse(refusal);
  const limits = declaredLimits(profile);
  if ("malformed" in limits) return refuse(`${profile.id}: ${limits.malformed}`);
  await profileOf(o.known, o.store, profile.id); // Cluster: a key pinned elsewhere counts.
  const known = o.known.get(profile.id);
  if (known !== undefined && known.profile.publicKey !== profile.publicKey) {
    return refuse(`${profile.id} is registered with another key`);
  }
  if (known === undefined || known.profile.issuedAt < profile.issuedAt) {
    await o.store.saveAgent(profile);
    o.known.set(profile.id, { profile, key: verified.value.publicKey });
  }
  return { agentId: profile.id, lastSeq, priorityOrder, trace };
}

/** One agent the operator admits: its key, and the team the operator gives it (if any). */
export interface AllowedAgent {
  /** Base64 Ed25519 public key the agent must announce with. */
  publicKey: string;
  /** Its team for §8.5 `team` visibility; `undefined`: in no team. */
  team: string | undefined;
}

/** The operator's allow-list: agent id → {@link AllowedAgent}. */
export type AllowList = ReadonlyMap<string, AllowedAgent>;

/** Longest team name an allow-list entry may give. */
const MAX_TEAM_LENGTH = 256;

/** An entry `{ "profile": {...}, "team": "ops" }`: the operator names the team beside the profile. */
const EntrySchema = z.strictObject({
  profile: z.looseObject({}),
  team: z.string().min(1).max(MAX_TEAM_LENGTH).optional(),
});

/** The `team` field of a signed profile, when it is a string of 1 to 256 characters. */
function teamField(profile: AgentProfile): string | undefined {
  const team: unknown = profile["team"];
  if (team === undefined) return undefined;
  if (typeof team !== "string" || team.length === 0 || team.length > MAX_TEAM_LENGTH) {
    throw new Error(`${profile.id}: team must be a string of 1 to ${MAX_TEAM_LENGTH} characters`);
  }
  return team;
}

/**
 * The allow-list of `allowedProfiles` (each verified; throws on the first bad
 * one, and on an id listed twice). An entry is a signed profile, whose `team`
 * field is the agent's team as the operator listed it, or
 * `{ "profile": <signed profile>, "team": "ops" }`, whose `team` (or its
 * absence) the operator writes and which wins over the profile's. A profile
 * the agent re-signs later never changes it.
 */
export function allowList(profiles: Iterable<unknown> | undefined): AllowList | undefined {
  if (profiles === undefined) return undefined;
  const allowed = new Map<string, AllowedAgent>();
  for (const value of profiles) {
    const entry = EntrySchema.safeParse(value);
    const verified = verifyAgentProfile(entry.success ? entry.data.profile : value, nativeEd25519);
    if (!verified.ok) throw verified.error;
    const profile = verified.value;
    if (allowed.has(profile.id)) throw new Error(`${profile.id} is listed twice`);
    const team = entry.success ? entry.data.team : teamField(profile);
    allowed.set(profile.id, { publicKey: profile.publicKey, team });
  }
  return allowed;
}

/** An agent's team as the allow-list gives it; none without an allow-list (open registration). */
export function admittedTeams(
  allowed: AllowList | undefined,
): (agentId: string) => string | undefined {
  return (agentId) => allowed?.get(agentId)?.team;
}
