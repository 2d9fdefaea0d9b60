/**
 * Issue 38 (peers) and issue 40: a listening agent admits only the agents of
 * its allow list, with the keys the list gives (a stranger can neither read,
 * inject nor squat an id), applies §8.5 as a hub does with teams from the
 * allow list (collective answers, lookups, discovery), answers §7.3
 * discovery queries with a per-peer budget, and names itself as `hub` in the
 * frames of the lifecycle. Real sockets throughout.
 */
import { HubClient } from "@ocp/a2a-ocp-client";
import {
  type AgentIdentity,
  type AgentProfile,
  createAgentProfile,
  createMessage,
  generateIdentity,
  type KnowledgeNode,
  MemoryAuditLog,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { buildAnnouncement } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { OCPAgent } from "../src/agent.js";
import { PEER_DISCOVERY_QUERIES_PER_MINUTE } from "../src/limits.js";
import { listenForPeers, peerLink } from "../src/peer.js";
import { closersAfterEach, node, until, within } from "./support.js";

const cleanup = closersAfterEach();

const profileOf = (id: AgentIdentity, extra: Record<string, unknown> = {}): AgentProfile =>
  createAgentProfile(id, { extra }, nativeEd25519);

interface Handshake {
  ack: Record<string, unknown>;
  /** `ocp.connection.registered` or `ocp.connection.refused`. */
  answer: { type: string; payload: Record<string, unknown> };
  closeCode: Promise<number>;
  ws: WebSocket;
}

/** The connection lifecycle on a raw socket: the ack, the answer to the announcement, the close code. */
function handshake(url: string, id: AgentIdentity, profile = profileOf(id)): Promise<Handshake> {
  const ws = new WebSocket(url, ["a2a-ocp-v1"], { perMessageDeflate: false });
  const closeCode = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  let ack: Record<string, unknown> = {};
  return within(
    new Promise<Handshake>((resolve, reject) => {
      ws.on("error", reject);
      ws.on("message", (data) => {
        const frame = JSON.parse(data.toString()) as {
          type: string;
          payload: Record<string, unknown>;
        };
        if (frame.type === "ocp.connection.ack") {
          ack = frame.payload;
          ws.send(
            buildAnnouncement(id, profile, String(ack["nonce"]), undefined, nativeEd25519, {}),
          );
        } else if (frame.type.startsWith("ocp.connection.")) {
          resolve({ ack, answer: frame, closeCode, ws });
        }
      });
    }),
    10_000,
    "the handshake",
  );
}

const stream = (from: AgentIdentity, to: string, n: KnowledgeNode) =>
  signObject(
    createMessage({
      type: "ocp.knowledge.stream",
      from: from.id,
      to,
      payload: { streamId: "s-1", nodes: [n], isIncremental: true, sequenceNumber: 1 },
    }),
    from.secretKey,
  );

describe("listenForPeers admits only the agents it is told to trust", () => {
  it("a stranger is refused at registration (4002 peer_not_allowed): she can neither query nor inject", async () => {
    const a = generateIdentity("a2a://auth-alice");
    const b = generateIdentity("a2a://auth-bob");
    const mallory = generateIdentity("a2a://auth-mallory");
    const audit = new MemoryAuditLog();
    const listener = await listenForPeers({
      identity: a,
      allowedPeers: [{ id: b.id, publicKey: b.publicKey }],
      audit,
    });
    const alice = new OCPAgent({ identity: a, link: listener.link }).start();
    cleanup.push(() => alice.close());
    await alice.streamKnowledge([node({ createdBy: a.id, title: "Deployment runbook secrets" })]);
    const heard: string[] = [];
    listener.link.onMessage((m) => heard.push(m.from));

    const raw = await handshake(listener.url, mallory);
    expect(raw.answer.type).toBe("ocp.connection.refused");
    expect(raw.answer.payload["code"]).toBe(4002);
    expect(String(raw.answer.payload["reason"])).toMatch(/^peer_not_allowed: /);
    expect(await raw.closeCode).toBe(4002);

    // Through the client a peer would use: the connection is refused, so no query and no stream.
    await expect(
      peerLink({ url: listener.url, identity: mallory, reconnect: false }),
    ).rejects.toMatchObject({ code: "registration_refused" });
    expect(listener.peers()).toEqual([]);
    expect(heard).toEqual([]);
    expect(alice.graph.liveNodes().map((n) => n.createdBy)).toEqual([a.id]);
    const refused = await audit.query({ agent: mallory.id });
    expect(refused.map((e) => [e.event, e.type, e.code])).toEqual([
      ["refused", "ocp.hub.announce", "peer_not_allowed"],
      ["refused", "ocp.hub.announce", "peer_not_allowed"],
    ]);
  }, 30_000);

  it("with no allow list configured nobody is admitted (closed by default)", async () => {
    const a = generateIdentity("a2a://closed-alice");
    const b = generateIdentity("a2a://closed-bob");
    const listener = await listenForPeers({ identity: a } as never);
    cleanup.push(() => listener.close());
    const raw = await handshake(listener.url, b);
    expect(raw.answer.type).toBe("ocp.connection.refused");
    expect(String(raw.answer.payload["reason"])).toMatch(/^peer_not_allowed: /);
    expect(await raw.closeCode).toBe(4002);
  }, 30_000);

  it("an id claimed with another key is refused (peer_key_mismatch), and the listed agent still connects and works", async () => {
    const a = generateIdentity("a2a://squat-alice");
    const b = generateIdentity("a2a://squat-bob");
    const listener = await listenForPeers({ identity: a, allowedPeers: [profileOf(b)] });
    const alice = new OCPAgent({ identity: a, link: listener.link }).start();
    cleanup.push(() => alice.close());
    const squatter = { ...generateIdentity("a2a://squat-mallory"), id: b.id };

    const raw = await handshake(listener.url, squatter);
    expect(raw.answer.type).toBe("ocp.connection.refused");
    expect(String(raw.answer.payload["reason"])).toMatch(/^peer_key_mismatch: /);
    expect(await raw.closeCode).toBe(4002);
    await expect(
      HubClient.connect({ url: listener.url, identity: squatter, reconnect: false }),
    ).rejects.toMatchObject({ code: "registration_refused" });

    // The real Bob after the attempts: admitted, and everything works as before.
    const bob = new OCPAgent({
      identity: b,
      link: await peerLink({ url: listener.url, identity: b, reconnect: false }),
    }).start();
    cleanup.push(() => bob.close());
    expect(listener.peers()).toEqual([b.id]);
    const got: KnowledgeNode[] = [];
    bob.on("knowledge", (n) => got.push(...n));
    await bob.subscribe(a.id, { deliveryMode: "push" });
    await bob.beacon({ status: "idle", availability: "available" });
    await until(() => alice.presence.get(b.id) !== undefined, "the subscription processed");
    await alice.streamKnowledge([node({ createdBy: a.id, title: "Canary rollout checklist" })]);
    await until(() => got.length === 1, "the stream reaches the listed agent");
    const answer = await within(
      bob.collectiveQuery("canary rollout", { timeout: 10_000, minResponses: 1 }),
      20_000,
      "collective query",
    );
    expect(answer.responses[0]?.payload.findings.map((f) => f.node.title)).toEqual([
      "Canary rollout checklist",
    ]);
  }, 30_000);
});

describe("listenForPeers: the allow list at run time", () => {
  it("allow() admits a peer from then on; revoke() closes its connection (4002) and refuses it again", async () => {
    const a = generateIdentity("a2a://runtime-alice");
    const b = generateIdentity("a2a://runtime-bob");
    const listener = await listenForPeers({ identity: a, allowedPeers: [] });
    cleanup.push(() => listener.close());
    await expect(
      HubClient.connect({ url: listener.url, identity: b, reconnect: false }),
    ).rejects.toMatchObject({ code: "registration_refused" });
    expect(listener.allow({ id: b.id, publicKey: b.publicKey })).toBe(b.id);
    const client = await HubClient.connect({ url: listener.url, identity: b, reconnect: false });
    cleanup.push(() => client.close());
    const closed = within(
      new Promise<{ code: number }>((resolve) => client.once("close", resolve)),
      10_000,
      "the revoked connection closes",
    );
    listener.revoke(b.id);
    const info = await closed;
    expect(info.code).toBe(4002);
    const raw = await handshake(listener.url, b);
    expect(String(raw.answer.payload["reason"])).toMatch(/^peer_not_allowed: /);
  }, 30_000);
});

describe("listenForPeers applies §8.5 as a hub does, teams from the allow list", () => {
  it("a peer's collective query is answered with only the nodes it may see; a team claimed in a re-signed profile counts for nothing", async () => {
    const a = generateIdentity("a2a://vis-alice");
    const b = generateIdentity("a2a://vis-bob");
    const c = generateIdentity("a2a://vis-carol");
    const listener = await listenForPeers({
      identity: a,
      profile: profileOf(a, { team: "core" }),
      allowedPeers: [
        { id: b.id, publicKey: b.publicKey, team: "core" },
        { id: c.id, publicKey: c.publicKey, team: "ops" },
      ],
    });
    // No `visibility` given: the agent takes the listener's (the link's).
    const alice = new OCPAgent({ identity: a, link: listener.link }).start();
    cleanup.push(() => alice.close());
    expect(alice.visibility).toBe(listener.visibility);
    await alice.streamKnowledge([
      node({ id: "rb-public", createdBy: a.id, title: "Runbook public", visibility: "public" }),
      node({ id: "rb-team", createdBy: a.id, title: "Runbook core team", visibility: "team" }),
      node({ id: "rb-private", createdBy: a.id, title: "Runbook private", visibility: "private" }),
    ]);
    const ask = async (id: AgentIdentity, profile: AgentProfile) => {
      const agent = new OCPAgent({
        identity: id,
        link: await peerLink({ url: listener.url, identity: id, profile, reconnect: false }),
      }).start();
      cleanup.push(() => agent.close());
      const result = await within(
        agent.collectiveQuery("runbook", { timeout: 10_000, minResponses: 1 }),
        20_000,
        "collective query",
      );
      return result.responses[0]?.payload.findings.map((f) => f.node.id).sort();
    };
    expect(await ask(b, profileOf(b))).toEqual(["rb-public", "rb-team"]);
    // Carol is in "ops" by the allow list; her own profile says "core".
    expect(await ask(c, profileOf(c, { team: "core" }))).toEqual(["rb-public"]);
  }, 40_000);

  it("the link delivers a message to a peer only when the peer may see every node it carries", async () => {
    const a = generateIdentity("a2a://gate-alice");
    const c = generateIdentity("a2a://gate-carol");
    const listener = await listenForPeers({
      identity: a,
      allowedPeers: [{ id: c.id, publicKey: c.publicKey, team: "ops" }],
    });
    cleanup.push(() => listener.close());
    const carol = await HubClient.connect({ url: listener.url, identity: c, reconnect: false });
    cleanup.push(() => carol.close());
    const received: string[] = [];
    carol.on("message", (m) => received.push(m.message.id));
    const hidden = stream(a, c.id, node({ createdBy: a.id, visibility: "private" }));
    const teamOnly = stream(a, "broadcast", node({ createdBy: a.id, visibility: "team" }));
    const shared = stream(
      a,
      c.id,
      node({ createdBy: a.id, visibility: "private", sharedWith: [c.id] }),
    );
    expect(await listener.link.send(hidden)).toEqual({ recipients: 0, excluded: 1 });
    expect(await listener.link.send(teamOnly)).toEqual({ recipients: 0, excluded: 1 });
    expect(await listener.link.send(shared)).toEqual({ recipients: 1, excluded: 0 });
    await until(() => received.length === 1, "the shared node");
    expect(received).toEqual([shared["id"]]);
  }, 30_000);
});

describe("listenForPeers answers lookups and §7.3 discovery (issue 40)", () => {
  it("registered and ack name the listener as hub; agentId is the registered peer", async () => {
    const a = generateIdentity("a2a://reg-alice");
    const b = generateIdentity("a2a://reg-bob");
    const profile = profileOf(a);
    const listener = await listenForPeers({
      identity: a,
      profile,
      allowedPeers: [{ id: b.id, publicKey: b.publicKey }],
    });
    cleanup.push(() => listener.close());
    const raw = await handshake(listener.url, b);
    cleanup.push(async () => raw.ws.close());
    const hub = { id: a.id, publicKey: profile.publicKey, profile };
    expect(raw.ack["hub"]).toEqual(hub);
    expect(raw.answer.type).toBe("ocp.connection.registered");
    expect(raw.answer.payload).toMatchObject({ agentId: b.id, hub });
    raw.ws.close();
    const client = await HubClient.connect({ url: listener.url, identity: b, reconnect: false });
    cleanup.push(() => client.close());
    expect(client.hub).toMatchObject({ id: a.id, publicKey: profile.publicKey });
  }, 30_000);

  it("discovery returns the listener's card and the admitted peers' cards the asker may see; lookups obey the same rule", async () => {
    const a = generateIdentity("a2a://disc-alice");
    const b = generateIdentity("a2a://disc-bob");
    const c = generateIdentity("a2a://disc-carol");
    const d = generateIdentity("a2a://disc-dave");
    const dave = profileOf(d, { team: "ops", visibility: "team" });
    const listener = await listenForPeers({
      identity: a,
      allowedPeers: [
        { id: b.id, publicKey: b.publicKey, team: "core" },
        { id: c.id, publicKey: c.publicKey, team: "ops" },
        dave,
      ],
    });
    cleanup.push(() => listener.close());
    const carol = await HubClient.connect({
      url: listener.url,
      identity: c,
      profile: profileOf(c, { visibility: "private" }),
      reconnect: false,
    });
    cleanup.push(() => carol.close());
    const bob = await HubClient.connect({ url: listener.url, identity: b, reconnect: false });
    cleanup.push(() => bob.close());

    // Bob (core): not Carol's private card, not Dave's ops-team card.
    expect(await bob.lookupKey(c.id)).toBeUndefined();
    expect(await bob.lookupKey(d.id)).toBeUndefined();
    expect((await bob.findAgents({})).agents.map((p) => p.id)).toEqual([a.id, b.id]);
    // Carol (ops): her own card and Dave's team card.
    expect((await carol.findAgents({})).agents.map((p) => p.id)).toEqual([a.id, b.id, c.id, d.id]);
    expect(await carol.lookupKey(d.id)).toEqual(d.publicKey);
    const byFeature = await carol.findAgents({ features: ["no_such_feature"] });
    expect(byFeature.agents).toEqual([]);
  }, 30_000);

  it("discovery queries have a budget per peer that a reconnect does not reset", async () => {
    const a = generateIdentity("a2a://budget-alice");
    const b = generateIdentity("a2a://budget-bob");
    const listener = await listenForPeers({
      identity: a,
      allowedPeers: [{ id: b.id, publicKey: b.publicKey }],
    });
    cleanup.push(() => listener.close());
    const first = await HubClient.connect({ url: listener.url, identity: b, reconnect: false });
    for (let i = 0; i < PEER_DISCOVERY_QUERIES_PER_MINUTE; i += 1) await first.findAgents({});
    await expect(first.findAgents({})).rejects.toMatchObject({ code: "rate_limited" });
    await first.close();
    await until(() => listener.peers().length === 0, "the first connection gone");
    const again = await HubClient.connect({ url: listener.url, identity: b, reconnect: false });
    cleanup.push(() => again.close());
    await expect(again.findAgents({})).rejects.toMatchObject({ code: "rate_limited" });
  }, 30_000);
});
