/**
 * The federation fixture: two peer hubs of the suite's own that a hub under
 * test federates with (its federate file lists them, docs/federation-checks.md).
 * `peer` is the one the checks make misbehave; `honest` only ever sends what
 * a peer may, to show the hub still serves an honest link after an attack.
 * Each is a hub key (saved 0600 in the fixture directory) and an agent id
 * prefix. A link is a raw WebSocket to the hub's `listen` address that passes
 * the hub-to-hub handshake with the fixture's real key (docs/a2a-ocp-wire.md,
 * "Federation"), then sends and records frames exactly as the check writes them.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type AgentIdentity,
  type AgentProfile,
  createAgentProfile,
  generateIdentity,
  PROTOCOL,
  PROTOCOL_VERSION,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { isJsonObject } from "@ocp/a2a-ocp-messaging/internal";
import { loadIdentity, nativeEd25519, saveIdentity } from "@ocp/a2a-ocp-messaging/node";
import { attemptRegistration, type Control, type Peer } from "./raw.js";

/** The fixture's two peer hubs: `peer` misbehaves, `honest` shows the link is unaffected. */
export type FixturePeerName = "peer" | "honest";

/** The fixture's two peer hubs. */
export const FIXTURE_PEERS: Readonly<
  Record<FixturePeerName, { readonly hubId: string; readonly prefix: string }>
> = {
  peer: { hubId: "a2a://ocp-test-peer-hub", prefix: "a2a://ocp-test-peer/" },
  honest: { hubId: "a2a://ocp-test-honest-hub", prefix: "a2a://ocp-test-honest/" },
};

/** What the federation checks need: the hub's link address and the fixture's keys. */
export interface FederationTarget {
  /** Where the hub under test accepts hub links (its federate file's `listen`), ws:// or wss://. */
  readonly link: string;
  readonly keys: Readonly<Record<FixturePeerName, AgentIdentity>>;
}

/**
 * The fixture's keys in `dir` (`peer.key`, `honest.key`), created when absent;
 * and the entries of the hub's federate file that list them.
 */
export async function loadFixture(
  dir: string,
): Promise<{ keys: Record<FixturePeerName, AgentIdentity>; peers: unknown[] }> {
  const keys = {} as Record<FixturePeerName, AgentIdentity>;
  for (const name of Object.keys(FIXTURE_PEERS) as FixturePeerName[]) {
    const file = join(dir, `${name}.key`);
    if (!existsSync(file)) await saveIdentity(file, generateIdentity(FIXTURE_PEERS[name].hubId));
    keys[name] = await loadIdentity(file);
    if (keys[name].id !== FIXTURE_PEERS[name].hubId) {
      throw new Error(`${file} holds ${keys[name].id}, not ${FIXTURE_PEERS[name].hubId}`);
    }
  }
  const peers = (Object.keys(FIXTURE_PEERS) as FixturePeerName[]).map((name) => ({
    hubId: keys[name].id,
    publicKey: Buffer.from(keys[name].publicKey).toString("base64"),
    agents: [FIXTURE_PEERS[name].prefix],
    queries: false,
  }));
  return { keys, peers };
}

/** A fresh agent of fixture peer `name`, with its public signed card. */
export function fixtureAgent(
  name: FixturePeerName,
  label: string,
): { id: AgentIdentity; card: AgentProfile } {
  const id = generateIdentity(`${FIXTURE_PEERS[name].prefix}${label}-${randomUUID().slice(0, 8)}`);
  return { id, card: createAgentProfile(id, { extra: { visibility: "public" } }, nativeEd25519) };
}

/** The signed `ocp.fed.hello` of `key` over the hub's `nonce`. */
function hello(key: AgentIdentity, nonce: string): string {
  const body = {
    protocol: PROTOCOL,
    type: "ocp.fed.hello",
    version: PROTOCOL_VERSION,
    payload: { hubId: key.id, nonce, challenge: randomBytes(24).toString("base64url") },
  };
  return JSON.stringify(signObject(body, key.secretKey, nativeEd25519));
}

/** One hub link of the fixture, opened and authenticated. */
export class FixtureLink {
  readonly peer: Peer;
  #seq = 0;

  private constructor(peer: Peer) {
    this.peer = peer;
  }

  /** Dials `target.link` as fixture peer `name`; throws when the hub does not take the link. */
  static async open(
    target: FederationTarget,
    name: FixturePeerName,
    timeoutMs: number,
  ): Promise<FixtureLink> {
    const key = target.keys[name];
    const attempt = await attemptRegistration(target.link, (nonce) => hello(key, nonce), timeoutMs);
    if (attempt.outcome !== "registered") {
      attempt.peer.close();
      throw new Error(`the hub did not take the hub link of ${key.id}: ${attempt.detail}`);
    }
    const link = new FixtureLink(attempt.peer);
    // A decent peer in this respect: it acknowledges what the hub forwards, so nothing piles up.
    let acked = 0;
    attempt.peer.ws.on("message", () => {
      const forwarded = link.received("ocp.fed.message");
      for (const f of forwarded.slice(acked)) link.send("ocp.fed.ack", { seq: f.payload["seq"] });
      acked = forwarded.length;
    });
    return link;
  }

  /** Sends one frame as written. */
  send(type: string, payload: unknown): void {
    this.peer.send(JSON.stringify({ type, payload }));
  }

  /** Vouches for `cards`. */
  vouch(cards: unknown[]): void {
    this.send("ocp.fed.agents", { cards });
  }

  /** Forwards `raw` as the next `seq` (or the given one); returns the seq used. */
  forward(raw: string, seq?: number): number {
    const used = seq ?? this.#seq + 1;
    this.#seq = Math.max(this.#seq, used);
    this.send("ocp.fed.message", { seq: used, raw });
    return used;
  }

  /** Frames of `type` the hub sent on this link. */
  received(type: string): Control[] {
    const frames: Control[] = [];
    for (const text of this.peer.after) {
      try {
        const value = JSON.parse(text) as { type?: unknown; payload?: unknown };
        if (value.type === type && isJsonObject(value.payload)) {
          frames.push({ type, payload: value.payload });
        }
      } catch {}
    }
    return frames;
  }

  /** The hub's answer to `seq`: `ack`, or the code of its reject. */
  answerTo(seq: number, timeoutMs: number): Promise<string> {
    return this.peer.waitFor(
      () => {
        if (this.received("ocp.fed.ack").some((a) => a.payload["seq"] === seq)) return "ack";
        const reject = this.received("ocp.fed.reject").find((r) => r.payload["seq"] === seq);
        return reject === undefined ? undefined : String(reject.payload["code"]);
      },
      `the hub's answer to seq ${seq}`,
      timeoutMs,
    );
  }

  /** The code the hub refused vouching for `agentId` with. */
  refusedCard(agentId: string, timeoutMs: number): Promise<string> {
    return this.peer.waitFor(
      () => {
        const reject = this.received("ocp.fed.reject").find((r) => r.payload["agent"] === agentId);
        return reject === undefined ? undefined : String(reject.payload["code"]);
      },
      `a refusal of the card of ${agentId}`,
      timeoutMs,
    );
  }

  /** Messages (exact text) the hub forwarded on this link. */
  forwarded(): string[] {
    return this.received("ocp.fed.message").map((f) => String(f.payload["raw"]));
  }

  close(): void {
    this.peer.close();
  }
}
