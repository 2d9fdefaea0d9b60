/**
 * Who may connect to a listening agent (`listenForPeers`'s `allowedPeers`):
 * the agents the operator names, each with the key it must announce, and the
 * team it belongs to (§8.5 `team` visibility reads it, never the peer's own
 * profile). The key of an id comes from this list, never from the first
 * announcement seen, so an agent that claims a listed id with another key is
 * refused and the listed agent still gets in. With `"any"` (an explicit
 * choice, for test harnesses such as the compatibility suite) every agent
 * with a valid self-signed profile is admitted, the first key seen for an id
 * is pinned for the listener's lifetime, and no peer has a team.
 */
import { type AgentProfile, verifyAgentProfile } from "@ocp/a2a-ocp-messaging";
import { MAX_AGENT_URI_LENGTH, publicKeyFromBase64 } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { agentError } from "./errors.js";
import { MAX_ALLOWED_PEERS } from "./limits.js";

/** One admitted agent: its id, its Ed25519 public key (base64 or bytes) and, optionally, its team. */
export interface AllowedPeerEntry {
  readonly id: string;
  readonly publicKey: string | Uint8Array;
  /** The §8.5 team the operator puts this peer in (what `team` visibility reads). */
  readonly team?: string;
}

/**
 * An allow-list entry: `{ id, publicKey, team? }`, or a signed agent profile
 * (verified; its `publicKey`, and its `team` when it has one, are taken as the
 * operator vetted them).
 */
export type AllowedPeer = AllowedPeerEntry | AgentProfile;

/** `allowedPeers`: the admitted agents, or `"any"` to admit every agent with a valid profile. */
export type AllowedPeers = readonly AllowedPeer[] | "any";

/** Why a registration was refused (the prefix of the `ocp.connection.refused` reason). */
export type PeerRefusal = "peer_not_allowed" | "peer_key_mismatch" | "peer_already_connected";

interface Grant {
  readonly key: Uint8Array;
  readonly team: string | undefined;
  /** The profile given in the allow list, served to discovery until the peer announces a newer one. */
  readonly profile: AgentProfile | undefined;
}

function isProfile(entry: AllowedPeer): entry is AgentProfile {
  return typeof entry === "object" && entry !== null && "signature" in entry;
}

function grantOf(entry: unknown, listenerId: string): [string, Grant] {
  if (typeof entry !== "object" || entry === null)
    throw agentError("invalid_allowed_peer", "an allowed peer is an object");
  if (isProfile(entry as AllowedPeer)) {
    const verified = verifyAgentProfile(entry, nativeEd25519);
    if (!verified.ok)
      throw agentError("invalid_allowed_peer", `allowed peer: ${verified.error.message}`);
    const profile = verified.value;
    const team: unknown = Reflect.get(profile, "team");
    return checked(listenerId, profile.id, profile.publicKey, team, profile);
  }
  const { id, publicKey, team } = entry as AllowedPeerEntry;
  return checked(listenerId, id, publicKey, team, undefined);
}

function checked(
  listenerId: string,
  id: unknown,
  publicKey: unknown,
  team: unknown,
  profile: AgentProfile | undefined,
): [string, Grant] {
  if (typeof id !== "string" || !id.startsWith("a2a://") || id.length > MAX_AGENT_URI_LENGTH)
    throw agentError("invalid_allowed_peer", "an allowed peer's id is an a2a:// URI");
  if (id === listenerId) throw agentError("invalid_allowed_peer", `${id} is the listener's own id`);
  const key =
    typeof publicKey === "string"
      ? publicKeyFromBase64(publicKey)
      : publicKey instanceof Uint8Array && publicKey.length === 32
        ? Uint8Array.from(publicKey)
        : undefined;
  if (key === undefined)
    throw agentError("invalid_allowed_peer", `${id}: publicKey is not a 32-byte Ed25519 key`);
  if (team !== undefined && (typeof team !== "string" || team.length === 0 || team.length > 256))
    throw agentError("invalid_allowed_peer", `${id}: team is a string of 1 to 256 characters`);
  return [id, { key, team: team as string | undefined, profile }];
}

/** The admission rules of one listener. */
export class PeerAllowList {
  readonly open: boolean;
  readonly #listenerId: string;
  readonly #grants = new Map<string, Grant>();
  /** Open mode only: the first key seen for an id (trust on first use). */
  readonly #pinned = new Map<string, Uint8Array>();

  /** `undefined` (not configured) admits nobody: the door is shut until the operator names who may enter. */
  constructor(listenerId: string, allowed: AllowedPeers | undefined) {
    this.#listenerId = listenerId;
    this.open = allowed === "any";
    if (allowed === undefined || allowed === "any") return;
    if (!Array.isArray(allowed))
      throw agentError("invalid_allowed_peer", 'allowedPeers is an array of peers or "any"');
    for (const entry of allowed) this.allow(entry);
  }

  /** Admits `entry` from now on (replacing an earlier grant of the same id). */
  allow(entry: AllowedPeer): string {
    const [id, grant] = grantOf(entry, this.#listenerId);
    if (!this.#grants.has(id) && this.#grants.size >= MAX_ALLOWED_PEERS)
      throw agentError(
        "limit_exceeded",
        `more than MAX_ALLOWED_PEERS (${MAX_ALLOWED_PEERS}) peers`,
      );
    this.#grants.set(id, grant);
    return id;
  }

  /** Stops admitting `id`; true when it was listed. */
  revoke(id: string): boolean {
    return this.#grants.delete(id);
  }

  /** The ids on the list (empty in open mode). */
  ids(): string[] {
    return [...this.#grants.keys()];
  }

  /** The profile the allow list gave for `id`, if any. */
  listedProfile(id: string): AgentProfile | undefined {
    return this.#grants.get(id)?.profile;
  }

  /** The key `id` must sign with, if it is admitted. */
  keyOf(id: string): Uint8Array | undefined {
    return this.#grants.get(id)?.key ?? this.#pinned.get(id);
  }

  /** The team the operator put `id` in (never read from the peer's own profile). */
  teamOf(id: string): string | undefined {
    return this.#grants.get(id)?.team;
  }

  /** Whether `id`, announcing `key`, may register; in open mode a first sight pins the key. */
  admit(
    id: string,
    key: Uint8Array,
  ): { ok: true } | { ok: false; refusal: PeerRefusal; why: string } {
    if (id === this.#listenerId)
      return { ok: false, refusal: "peer_not_allowed", why: `${id} is the listener's own id` };
    const expected = this.keyOf(id);
    if (expected === undefined) {
      if (!this.open)
        return {
          ok: false,
          refusal: "peer_not_allowed",
          why: `${id} is not on ${this.#listenerId}'s allow list`,
        };
      if (this.#pinned.size >= MAX_ALLOWED_PEERS)
        return { ok: false, refusal: "peer_not_allowed", why: "the listener pins no more keys" };
      this.#pinned.set(id, Uint8Array.from(key));
      return { ok: true };
    }
    if (Buffer.compare(expected, key) !== 0)
      return {
        ok: false,
        refusal: "peer_key_mismatch",
        why: `${id} is admitted with another key`,
      };
    return { ok: true };
  }
}
