/**
 * Issue 44, federation, with two organisations' real hubs (each its own
 * SQLite file and sockets) linked in one process: mutual authentication and
 * closed by default, what crosses (a public fix, a node shared with a remote
 * agent) and what never does (team and workspace nodes, by every route),
 * both sides' audit.
 */
import { type AgentIdentity, createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { buildAnnouncement } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { type RawAgent, rawAgent, tempDir, testHubOptions } from "@ocp/testkit";
import { describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { challenge, hello } from "../src/federation/auth.js";
import { OCPHub } from "../src/index.js";
import { closedAfterEach, hubIdentity, peerEntry, startOrg } from "./federation-support.js";
import { node, sendSigned, until } from "./support.js";

vi.setConfig({ testTimeout: 60_000 });

const { orgs } = closedAfterEach();

/** acme (accepts hub links) and globex (dials acme), linked; `queries`: what each opts in to. */
async function linked(queries: { acme?: boolean; globex?: boolean } = {}) {
  const acmeKey = hubIdentity("acme");
  const globexKey = hubIdentity("globex");
  const acme = await startOrg("acme", acmeKey, [
    peerEntry("globex", globexKey, undefined, queries.acme ?? false),
  ]);
  orgs.push(acme);
  const globex = await startOrg(
    "globex",
    globexKey,
    [peerEntry("acme", acmeKey, acme.federation.url, queries.globex ?? false)],
    {
      listen: false,
    },
  );
  orgs.push(globex);
  await until(
    () => acme.federation.links()[0]!.open && globex.federation.links()[0]!.open,
    "the link",
  );
  return { acme, globex };
}

/** Sends a signed message from `from`; resolves with the hub's answer. */
const send = sendSigned;

function stream(to: string, nodes: unknown[]) {
  return {
    type: "ocp.knowledge.stream" as const,
    to,
    payload: { streamId: "s-1", nodes, edges: [], isIncremental: true, sequenceNumber: 1 },
  };
}

const got = (agent: RawAgent, text: string) => agent.delivered().some((d) => d.includes(text));

describe("federation: hub links", () => {
  it("links two hubs mutually authenticated by their hub keys; each learns the other's public cards", async () => {
    const { acme, globex } = await linked();
    const alice = await acme.agent("alice");
    const bob = await globex.agent("bob");
    await until(() => acme.federation.registry.get(bob.id.id) !== undefined, "bob vouched to acme");
    await until(
      () => globex.federation.registry.get(alice.id.id) !== undefined,
      "alice vouched to globex",
    );
    expect(globex.federation.links()).toEqual([
      { hubId: acme.hubIdentity.id, open: true, agents: 1 },
    ]);
  });

  it("a hub without a federate file takes no hub link: a hub's hello on its port is refused (4001)", async () => {
    const temp = tempDir();
    const plain = await OCPHub.start(testHubOptions(temp.dir));
    try {
      const key = hubIdentity("globex");
      const closed = await new Promise<number>((resolve) => {
        const ws = new WebSocket(plain.url, ["a2a-ocp-v1"], { perMessageDeflate: false });
        ws.on("message", (data) => {
          const f = JSON.parse(data.toString()) as { type: string; payload: { nonce: string } };
          if (f.type === "ocp.connection.ack") ws.send(hello(key, f.payload.nonce, challenge()));
        });
        ws.on("close", (code) => resolve(code));
      });
      expect(closed).toBe(4001);
    } finally {
      await plain.close();
      temp.cleanup();
    }
  });

  it("an agent whose id is under a peer's prefix cannot register at this hub (it is the other organisation's)", async () => {
    const { acme } = await linked();
    const eve = generateIdentity("a2a://globex/eve");
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      const ws = new WebSocket(acme.hub.url, ["a2a-ocp-v1"], { perMessageDeflate: false });
      ws.on("message", (data) => {
        const f = JSON.parse(data.toString()) as { type: string; payload: { nonce: string } };
        if (f.type !== "ocp.connection.ack") return;
        const profile = createAgentProfile(eve, {}, nativeEd25519);
        ws.send(buildAnnouncement(eve, profile, f.payload.nonce, undefined, nativeEd25519));
      });
      ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    expect(closed).toEqual({ code: 4002, reason: `${eve.id} is not admitted` });
    const ok = generateIdentity("a2a://acme/dave");
    (await rawAgent(acme.hub.url, ok, 5_000)).close();
  });

  it("refuses a hub link from a hub the federate file does not list, and from a listed id with another key (federation_unknown_peer)", async () => {
    const { acme } = await linked();
    const stranger = hubIdentity("initech");
    const initech = await startOrg(
      "initech",
      stranger,
      [peerEntry("acme", acme.hubIdentity, acme.federation.url)],
      {
        listen: false,
      },
    );
    orgs.push(initech);
    const impostorKey = generateIdentity("a2a://globex-hub"); // globex's id, another key
    const impostor = await startOrg(
      "globex",
      impostorKey,
      [peerEntry("acme", acme.hubIdentity, acme.federation.url)],
      {
        listen: false,
      },
    );
    orgs.push(impostor);
    await until(
      () => acme.audit.entries().filter((e) => e.code === "federation_unknown_peer").length >= 2,
      "both refusals audited",
    );
    const reasons = acme.audit
      .entries()
      .filter((e) => e.code === "federation_unknown_peer")
      .map((e) => e.reason);
    expect(reasons.some((r) => r?.includes("a2a://initech-hub is not a peer"))).toBe(true);
    expect(reasons.some((r) => r?.includes("not signed by the key of a2a://globex-hub"))).toBe(
      true,
    );
    expect(initech.federation.links()[0]!.open).toBe(false);
    expect(impostor.federation.links()[0]!.open).toBe(false);
  });

  it("a dialling hub does not take a peer that cannot sign over its challenge (the acceptor must prove its key too)", async () => {
    const acmeKey = hubIdentity("acme");
    const acme = await startOrg("acme", acmeKey, [
      peerEntry("globex", hubIdentity("globex-other")),
    ]);
    orgs.push(acme);
    // globex expects acme's hub at that URL with another key than the one it really has.
    const globexKey = hubIdentity("globex");
    const fakeAcme = generateIdentity(acmeKey.id);
    const globex = await startOrg(
      "globex",
      globexKey,
      [peerEntry("acme", fakeAcme, acme.federation.url)],
      {
        listen: false,
      },
    );
    orgs.push(globex);
    await new Promise((r) => setTimeout(r, 300));
    expect(globex.federation.links()[0]!.open).toBe(false);
    expect(acme.federation.links()[0]!.open).toBe(false);
  });
});

describe("federation: what crosses", () => {
  it("Bob (globex) receives Alice's (acme) public fix and the node she shared with him; team and workspace nodes never reach globex by any route", async () => {
    const { acme, globex } = await linked();
    const alice = await acme.agent("alice");
    const carol = await acme.agent("carol", "workspace"); // a card that is not public
    const bob = await globex.agent("bob");
    await until(() => acme.federation.registry.get(bob.id.id) !== undefined, "bob vouched to acme");
    await until(() => globex.federation.registry.get(alice.id.id) !== undefined, "alice vouched");
    const fix = node(alice.id.id, "fix-public", { visibility: "public" });
    const shared = node(alice.id.id, "shared-with-bob", {
      visibility: "private",
      sharedWith: [bob.id.id],
    });
    const team = node(alice.id.id, "team-secret", { visibility: "team" });
    const workspace = node(alice.id.id, "workspace-secret", { visibility: "workspace" });
    const unlabelled = node(alice.id.id, "default-secret"); // the hub default: workspace
    // Every route: broadcast stream, direct stream, sync response, a team node beside a public one.
    await send(alice, stream("broadcast", [fix]));
    await send(alice, stream(bob.id.id, [shared]));
    for (const secret of [team, workspace, unlabelled]) {
      await send(alice, stream("broadcast", [secret]));
      await send(alice, stream(bob.id.id, [secret]));
      await send(alice, stream(bob.id.id, [fix, secret]));
      await send(alice, {
        type: "ocp.knowledge.sync.response",
        to: bob.id.id,
        payload: {
          syncId: "x",
          nodes: [secret],
          edges: [],
          versionVector: {},
          isComplete: true,
          checksum: "c",
        },
      });
    }
    // Carol's card is not public: nothing of hers crosses, not even a public node.
    await send(
      carol,
      stream(bob.id.id, [node(carol.id.id, "carol-public", { visibility: "public" })]),
    );
    const marker = node(alice.id.id, "marker", { visibility: "public" });
    await send(alice, stream(bob.id.id, [marker]));
    await until(() => got(bob.raw, "marker"), "the marker, sent last");
    expect(got(bob.raw, "fix-public")).toBe(true);
    expect(got(bob.raw, "shared-with-bob")).toBe(true);
    for (const secret of ["team-secret", "workspace-secret", "default-secret", "carol-public"]) {
      expect(got(bob.raw, secret)).toBe(false);
    }
    // Card lookup and discovery: carol is unknown at globex; alice's public card is there.
    expect(globex.federation.registry.get(carol.id.id)).toBeUndefined();
    expect(await globex.hub.store.agent?.(carol.id.id)).toBeUndefined();
    expect((await globex.hub.store.agent?.(alice.id.id))?.id).toBe(alice.id.id);
    // Both sides' audit: what crossed (acme) and what arrived (globex); what acme withheld and why.
    const withheld = acme.audit.entries().filter((e) => e.code === "federation_withheld");
    expect(withheld.length).toBeGreaterThanOrEqual(6);
    expect(withheld.some((e) => e.reason?.includes("workspace node"))).toBe(true);
    expect(
      acme.audit
        .entries()
        .some((e) => e.event === "delivered" && e.to.includes(globex.hubIdentity.id)),
    ).toBe(true);
    // The audit names the message's own type, never the type of a node it carries.
    const crossedTypes = acme.audit
      .entries()
      .filter((e) => e.event === "delivered" && e.to.includes(globex.hubIdentity.id))
      .map((e) => e.type);
    expect(crossedTypes).toContain("ocp.knowledge.stream");
    expect(crossedTypes.every((type) => type?.startsWith("ocp."))).toBe(true);
    expect(
      globex.audit.entries().some((e) => e.event === "accepted" && e.from === alice.id.id),
    ).toBe(true);
  });

  it("a message committed while the link is down is forwarded once it returns, and applied once", async () => {
    const acmeKey = hubIdentity("acme");
    const globexKey = hubIdentity("globex");
    const acme = await startOrg("acme", acmeKey, [peerEntry("globex", globexKey)]);
    orgs.push(acme);
    const globex = await startOrg(
      "globex",
      globexKey,
      [peerEntry("acme", acmeKey, acme.federation.url)],
      {
        listen: false,
      },
    );
    orgs.push(globex);
    await until(
      () => acme.federation.links()[0]!.open && globex.federation.links()[0]!.open,
      "the link",
    );
    const alice = await acme.agent("alice");
    const bob = await globex.agent("bob");
    await until(
      () => acme.federation.registry.get(bob.id.id) !== undefined,
      `bob vouched ${JSON.stringify(acme.federation.links())}`,
    );
    await until(
      () => globex.federation.registry.get(alice.id.id) !== undefined,
      `alice vouched ${JSON.stringify(globex.federation.links())}`,
    );
    await globex.federation.close(); // the link goes down; globex stays up
    await until(() => !acme.federation.links()[0]!.open, "the link down");
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { code } = await send(
        alice,
        stream(bob.id.id, [node(alice.id.id, `offline-${i}`, { visibility: "public" })]),
      );
      expect(code).toBeUndefined();
      sent.push(i);
    }
    orgs.splice(orgs.indexOf(globex), 1);
    await globex.hub.close();
    const again = await startOrg(
      "globex",
      globexKey,
      [peerEntry("acme", acmeKey, acme.federation.url)],
      {
        listen: false,
        dir: globex.dir,
      },
    );
    orgs.push(again);
    const bob2 = await (async () => {
      const { rawAgent } = await import("@ocp/testkit");
      const raw = await rawAgent(again.hub.url, bob.id, 10_000, {
        profile: { visibility: "public" },
      });
      return raw;
    })();
    await until(
      () => sent.every((i) => got(bob2, `offline-${i}`)),
      "every message committed while down",
    );
    await new Promise((r) => setTimeout(r, 200));
    for (const i of sent)
      expect(bob2.delivered().filter((d) => d.includes(`offline-${i}`)).length).toBe(1);
    bob2.close();
  });
});

describe("federation: collective queries (opt-in)", () => {
  async function ask(alice: { id: AgentIdentity; raw: RawAgent }, timeout: number) {
    return send(alice, {
      type: "ocp.collective.query",
      to: "broadcast",
      payload: { queryId: "q-1", query: "who fixed the cache?", timeout },
    });
  }

  function answer(agent: { id: AgentIdentity; raw: RawAgent }, to: string, nodeId: string) {
    return send(agent, {
      type: "ocp.collective.response",
      to,
      payload: {
        queryId: "q-1",
        findings: [{ node: node(agent.id.id, nodeId, { visibility: "public" }), relevance: 0.9 }],
        confidence: 0.8,
        processingTime: 5,
      },
    });
  }

  it("a federated collective query is answered from both organisations within its deadline", async () => {
    const { acme, globex } = await linked({ acme: true, globex: true });
    const alice = await acme.agent("alice");
    const dave = await acme.agent("dave");
    const bob = await globex.agent("bob");
    await until(() => acme.federation.registry.get(bob.id.id) !== undefined, "bob vouched");
    await until(() => globex.federation.registry.get(alice.id.id) !== undefined, "alice vouched");
    const timeout = 10_000;
    const asked = Date.now();
    const { message } = await ask(alice, timeout);
    await until(
      () => got(dave.raw, message.id) && got(bob.raw, message.id),
      "the query on both sides",
    );
    await answer(dave, alice.id.id, "dave-finding");
    await answer(bob, alice.id.id, "bob-finding");
    await until(
      () => got(alice.raw, "dave-finding") && got(alice.raw, "bob-finding"),
      "both answers",
      timeout,
    );
    expect(Date.now() - asked).toBeLessThan(timeout);
    // The answer that crossed is the one bob signed, verifiable end to end.
    const across = alice.raw.delivered().find((d) => d.includes("bob-finding"))!;
    expect(JSON.parse(across).from).toBe(bob.id.id);
    // The other way: bob asks, and an answer carrying acme's team node never reaches him.
    const { message: bobs } = await ask(bob, timeout);
    await until(() => got(dave.raw, bobs.id), "bob's query at acme");
    const teamAnswer = {
      type: "ocp.collective.response" as const,
      to: bob.id.id,
      payload: {
        queryId: "q-1",
        findings: [{ node: node(dave.id.id, "dave-team", { visibility: "team" }), relevance: 1 }],
        confidence: 1,
        processingTime: 1,
      },
    };
    await send(dave, teamAnswer);
    await answer(dave, bob.id.id, "dave-public");
    await until(() => got(bob.raw, "dave-public"), "dave's public answer at bob");
    expect(got(bob.raw, "dave-team")).toBe(false);
  });

  it("without the opt-in a query does not cross, and the receiving hub refuses answers from a peer it did not opt in with (federation_withheld, audited)", async () => {
    const { acme, globex } = await linked({ acme: false, globex: true });
    const alice = await acme.agent("alice");
    const bob = await globex.agent("bob");
    await until(() => acme.federation.registry.get(bob.id.id) !== undefined, "bob vouched");
    await until(() => globex.federation.registry.get(alice.id.id) !== undefined, "alice vouched");
    const { message } = await ask(alice, 5_000);
    // bob answers anyway (as if he had seen it): acme refuses answers from a peer that did not opt in.
    await send(bob, {
      type: "ocp.collective.response",
      to: alice.id.id,
      payload: {
        queryId: "q-1",
        findings: [{ node: node(bob.id.id, "bob-public", { visibility: "public" }), relevance: 1 }],
        confidence: 1,
        processingTime: 1,
      },
    });
    await until(
      () =>
        globex.audit
          .entries()
          .some((e) => e.code === "federation_withheld" && e.reason?.includes("refused by")),
      "the answer refused by acme",
    );
    expect(got(bob.raw, message.id)).toBe(false);
    expect(got(alice.raw, "bob-public")).toBe(false);
  });
});
