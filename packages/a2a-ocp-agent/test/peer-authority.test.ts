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
  buildAnnouncement,
  createAgentProfile,
  createMessage,
  generateIdentity,
  type KnowledgeNode,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { OCPAgent } from "../src/agent.js";
import { PEER_DISCOVERY_QUERIES_PER_MINUTE } from "../src/limits.js";
import { listenForPeers, peerLink } from "../src/peer.js";
import { node, until, within } from "./support.js";

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

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
    createMessage({ type: "ocp.knowledge.stream", from: from.id, to, payload: { nodes: [n] } }),
    from.secretKey,
  ) as Record<string, unknown>;

describe("listenForPeers admits only the agents it is told to trust", () => {
  it("a stranger is refused at registration (4002 peer_not_allowed): she can neither query nor inject", async () => {
    const a = generateIdentity("a2a://auth-alice");
    const b = generateIdentity("a2a://auth-bob");
    const mallory = generateIdentity("a2a://auth-mallory");
    const listener = await listenForPeers({
      identity: a,
      allowedPeers: [{ id: b.id, publicKey: b.publicKey }],
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
