/**
 * The agents peer hubs vouch for, and the inbound record of what each peer
 * forwarded, in the hub's SQLite file (tables `federation_agents` and
 * `federation_inbound`, beside the store's own). A peer vouches for an agent
 * by forwarding its self-signed card over the authenticated link; the card is
 * kept only when its id starts with one of the peer's prefixes (federate
 * file), is not an agent of this hub, and is not already another peer's.
 */
import type { AgentProfile } from "@ocp/a2a-ocp-messaging";
import { verifyAgentProfile } from "@ocp/a2a-ocp-messaging";
import { profilePublicKey } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { AgentProfileSchema } from "@ocp/a2a-ocp-messaging/schemas";
import Database from "better-sqlite3";
import type { FederationPeer } from "./config.js";
import { FEDERATION_MAX_AGENTS_PER_PEER } from "./limits.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS federation_agents (
  id TEXT PRIMARY KEY,
  peer TEXT NOT NULL,
  profile TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS federation_inbound (
  peer TEXT NOT NULL,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (peer, id)
) WITHOUT ROWID;
`;

/** An agent of a peer organisation, as its hub vouched for it. */
export interface RemoteAgent {
  peer: string;
  profile: AgentProfile;
  key: Uint8Array;
}

/** Why a vouched card was refused. */
export type VouchRefusal = { code: "federation_spoofed" | "invalid_profile"; reason: string };

export class FederationRegistry {
  readonly #db: Database.Database;
  readonly #agents = new Map<string, RemoteAgent>();
  readonly #counts = new Map<string, number>();
  readonly #statements: {
    save: Database.Statement;
    inbound: Database.Statement;
    record: Database.Statement;
    sweep: Database.Statement;
  };
  #forward: Database.Statement | undefined;
  /** Set on a hub of a NATS cluster: what this hub learns is shared with the others (src/nats/federation-share.ts). */
  sharing:
    | {
        card(peer: string, profile: AgentProfile): void;
        inbound(peer: string, id: string, seq: number, expiresAt: number): void;
      }
    | undefined;

  /** Opens (or creates) the federation tables in `path`, the hub's SQLite file. */
  constructor(path: string) {
    this.#db = new Database(path);
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = FULL");
    this.#db.pragma("busy_timeout = 5000");
    this.#db.exec(SCHEMA);
    const db = this.#db;
    this.#statements = {
      save: db.prepare(
        "INSERT INTO federation_agents (id, peer, profile) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET profile = excluded.profile",
      ),
      inbound: db.prepare("SELECT seq FROM federation_inbound WHERE peer = ? AND id = ?").pluck(),
      record: db.prepare(
        "INSERT OR IGNORE INTO federation_inbound (peer, id, seq, expires_at) VALUES (?, ?, ?, ?)",
      ),
      sweep: db.prepare("DELETE FROM federation_inbound WHERE expires_at <= ?"),
    };
    for (const row of db.prepare("SELECT peer, profile FROM federation_agents").all() as Array<{
      peer: string;
      profile: string;
    }>) {
      const parsed = AgentProfileSchema.safeParse(JSON.parse(row.profile));
      if (parsed.success) this.#remember(row.peer, parsed.data);
    }
  }

  #remember(peer: string, profile: AgentProfile): RemoteAgent {
    const agent = { peer, profile, key: profilePublicKey(profile) };
    if (!this.#agents.has(profile.id)) this.#counts.set(peer, (this.#counts.get(peer) ?? 0) + 1);
    this.#agents.set(profile.id, agent);
    return agent;
  }

  get(agentId: string): RemoteAgent | undefined {
    return this.#agents.get(agentId);
  }

  all(): Iterable<RemoteAgent> {
    return this.#agents.values();
  }

  /**
   * Takes a card `peer` vouches for: the kept {@link RemoteAgent} (new or
   * newer), `undefined` when it changes nothing, or the refusal.
   */
  vouch(
    peer: FederationPeer,
    card: unknown,
    isLocal: (agentId: string) => boolean,
  ): RemoteAgent | undefined | VouchRefusal {
    const verified = verifyAgentProfile(card, nativeEd25519);
    if (!verified.ok) return { code: "invalid_profile", reason: verified.error.message };
    const profile = verified.value;
    const spoofed = (why: string): VouchRefusal => ({
      code: "federation_spoofed",
      reason: `${peer.hubId} vouched for ${profile.id}: ${why}`,
    });
    if (!peer.agents.some((prefix) => profile.id.startsWith(prefix))) {
      return spoofed("outside the agent prefixes the federate file gives it");
    }
    if (isLocal(profile.id)) return spoofed("an agent of this hub");
    const current = this.#agents.get(profile.id);
    if (current !== undefined && current.peer !== peer.hubId) {
      return spoofed(`already vouched for by ${current.peer}`);
    }
    if (current !== undefined && current.profile.publicKey !== profile.publicKey) {
      return spoofed("another key than the one it vouched for first");
    }
    if (current !== undefined && current.profile.issuedAt >= profile.issuedAt) return undefined;
    if (
      current === undefined &&
      (this.#counts.get(peer.hubId) ?? 0) >= FEDERATION_MAX_AGENTS_PER_PEER
    ) {
      return { code: "federation_spoofed", reason: `${peer.hubId} vouched for too many agents` };
    }
    this.#statements.save.run(profile.id, peer.hubId, JSON.stringify(profile));
    this.sharing?.card(peer.hubId, profile);
    return this.#remember(peer.hubId, profile);
  }

  /** The link sequence number `peer` forwarded message `id` with, if it was applied here. */
  inboundSeq(peer: string, id: string): number | undefined {
    return this.#statements.inbound.get(peer, id) as number | undefined;
  }

  /** Records that message `id`, forwarded by `peer` as `seq`, was committed here. */
  recordInbound(peer: string, id: string, seq: number, expiresAt: number, now: number): void {
    this.#statements.record.run(peer, id, seq, expiresAt);
    this.sharing?.inbound(peer, id, seq, expiresAt);
    if (seq % 256 === 0) this.#statements.sweep.run(now);
  }

  /** What another hub of the cluster shared (src/nats/federation-share.ts): applied here, not shared again. */
  applyShared<T>(apply: () => T): T {
    const sharing = this.sharing;
    this.sharing = undefined;
    try {
      return apply();
    } finally {
      this.sharing = sharing;
    }
  }

  /** The peer answered outbox entry `seq` (acknowledged or refused for good): it leaves the outbox. */
  forwarded(peer: string, seq: number): void {
    // The outbox rows are the SQLite store's deliveries addressed to the peer hub (outbox.ts).
    this.#forward ??= this.#db.prepare("DELETE FROM deliveries WHERE agent = ? AND seq = ?");
    this.#forward.run(peer, seq);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
