/**
 * Hub authentication (§8.1, §6.4). The announcement carries the agent's
 * signed profile and the connection's nonce, and is signed by the profile's
 * Ed25519 key over its canonical form: it proves the agent holds the key its
 * profile binds to its `a2a://` URI, on this connection (the nonce is fresh
 * per connection, so a captured announcement is worthless elsewhere).
 *
 * The hub then decides whether to admit the agent: an allow-list of profiles
 * (or a predicate) when given; in any case the first key seen for an agent id
 * is pinned, and a later announcement with another key is refused.
 */
import { fail, ok, type Result } from "./errors.js";
import { HUB_TYPES, HubAnnounceSchema } from "./hub-protocol.js";
import {
  type AgentIdentity,
  type AgentProfile,
  profilePublicKey,
  verifyAgentProfile,
} from "./identity.js";
import { isJsonObject } from "./json.js";
import { defaultEd25519, type Ed25519Backend, signObject, verifyObject } from "./signing.js";
import { PROTOCOL, PROTOCOL_VERSION } from "./version.js";

/** The announcement text an agent sends over `nonce`. */
export function buildAnnouncement(
  identity: AgentIdentity,
  profile: AgentProfile,
  nonce: string,
  lastSeq: number | undefined,
  backend: Ed25519Backend = defaultEd25519(),
  options: { priorityOrder?: boolean; trace?: boolean } = {},
): string {
  const payload: Record<string, unknown> = { profile, nonce };
  if (lastSeq !== undefined) payload["lastSeq"] = lastSeq;
  if (options.priorityOrder === true) payload["ocpPriorityOrder"] = true;
  if (options.trace === true) payload["ocpTrace"] = true;
  const announcement = {
    protocol: PROTOCOL,
    type: HUB_TYPES.ANNOUNCE,
    version: PROTOCOL_VERSION,
    payload,
  };
  return JSON.stringify(signObject(announcement, identity.secretKey, backend));
}

/** A verified announcement. */
export interface VerifiedAnnouncement {
  profile: AgentProfile;
  publicKey: Uint8Array;
  lastSeq: number | undefined;
  /** The agent takes replay pages in priority order (`ocp.hub.batch`). */
  priorityOrder: boolean;
  /** The agent reads and sends trace contexts in hub frames (trace-context.ts). */
  trace: boolean;
}

/**
 * Verifies an announcement (parsed JSON) for the connection's `nonce`: its
 * shape, the profile's self-signature, the nonce, and the announcement's
 * signature by the profile's key. `invalid_profile` names which failed.
 */
export function verifyAnnouncement(
  value: unknown,
  nonce: string,
  backend: Ed25519Backend = defaultEd25519(),
): Result<VerifiedAnnouncement, "invalid_profile"> {
  const parsed = HubAnnounceSchema.safeParse(value);
  if (!parsed.success) {
    return fail("invalid_profile", "the announcement is malformed", {
      details: { issues: parsed.error.issues.slice(0, 5) },
    });
  }
  const payload: unknown = isJsonObject(value) ? value["payload"] : undefined;
  const profileValue = isJsonObject(payload) ? payload["profile"] : undefined;
  const profile = verifyAgentProfile(profileValue, backend);
  if (!profile.ok) return profile;
  if (parsed.data.payload.nonce !== nonce) {
    return fail("invalid_profile", "the announcement is not bound to this connection's nonce");
  }
  const publicKey = profilePublicKey(profile.value);
  if (!isJsonObject(value) || !verifyObject(value, publicKey, backend)) {
    return fail(
      "invalid_profile",
      `the announcement is not signed by the key of ${profile.value.id}`,
    );
  }
  const { lastSeq, ocpPriorityOrder, ocpTrace } = parsed.data.payload;
  return ok({
    profile: profile.value,
    publicKey,
    lastSeq,
    priorityOrder: ocpPriorityOrder === true,
    trace: ocpTrace === true,
  });
}
