/**
 * Admission of an announcement (§6.4): the signature over the nonce, the
 * allow-list and `allow` policy, the key an agent id is pinned to, and never
 * the hub's own id. Saves a new or newer profile.
 */
import { type AgentProfile, verifyAgentProfile, verifyAnnouncement } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { declaredLimits } from "./agent-limits.js";
import { type KnownAgents, profileOf } from "./cluster.js";
import type { HubStore } from "./store.js";

export interface AdmissionContext {
  known: KnownAgents;
  store: HubStore;
  /** Agent id → base64 public key, when an allow-list is set. */
  allowed: Map<string, string> | undefined;
  allow: ((profile: AgentProfile) => boolean) | undefined;
  hubId: string;
}

export type Admission =
  | { refused: string; kind?: "registration" }
  | { agentId: string; lastSeq: number | undefined; priorityOrder: boolean };

export async function admit(
  announcement: unknown,
  nonce: string,
  o: AdmissionContext,
): Promise<Admission> {
  const verified = verifyAnnouncement(announcement, nonce, nativeEd25519);
  if (!verified.ok) return { refused: verified.error.message };
  const { profile, lastSeq, priorityOrder } = verified.value;
  const refuse = (refused: string): Admission => ({ refused, kind: "registration" });
  if (profile.id === o.hubId) return refuse(`${profile.id} is the hub's own id`);
  if (o.allowed !== undefined && o.allowed.get(profile.id) !== profile.publicKey) {
    return refuse(`${profile.id} is not on the hub's allow-list`);
  }
  if (o.allow !== undefined && !o.allow(profile)) return refuse(`${profile.id} is not admitted`);
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
  return { agentId: profile.id, lastSeq, priorityOrder };
}

/** The allow-list of `allowedProfiles` (each verified; throws on the first bad one): id → key. */
export function allowList(
  profiles: Iterable<unknown> | undefined,
): Map<string, string> | undefined {
  if (profiles === undefined) return undefined;
  const allowed = new Map<string, string>();
  for (const value of profiles) {
    const verified = verifyAgentProfile(value, nativeEd25519);
    if (!verified.ok) throw verified.error;
    allowed.set(verified.value.id, verified.value.publicKey);
  }
  return allowed;
}
