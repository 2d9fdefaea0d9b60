/**
 * Issue 44, events across federation: a remote agent's subscription is
 * applied only when the peers opted in with `events: true`; the hub-signed
 * notification of a matching publish crosses (`ocp.fed.event`) with the
 * publisher's verifiable `ocpPublish`, never an event carrying a team or
 * workspace node; the receiving hub re-checks what a peer forwards. Two
 * real hubs in one process, raw agents, and a malicious peer fixture.
 */
import {
  type AgentIdentity,
  createAgentProfile,
  createMessage,
  generateIdentity,
  signedMessage,
  signObject,
  verifyMessageSync,
} from "@ocp/a2a-ocp-messaging";
import { HUB_ERROR_CODES } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { type RawAgent, tempDir } from "@ocp/testkit";
import { describe, expect, it, vi } from "vitest";
import {
  closedAfterEach,
  evilPeer,
  hubIdentity,
  type Org,
  peerEntry,
  startOrg,
} from "./federation-support.js";
import { node, sendSigned, until } from "./support.js";

vi.setConfig({ testTimeout: 60_000 });

const { orgs, sockets } = closedAfterEach();

type Agent = { id: AgentIdentity; raw: RawAgent };

/** acme (accepts) and globex (dials), linked; `events`: what each side's file opts in to. */
async function linked(events: { acme: boolean; globex: boolean }) {
  const acmeKey = hubIdentity("acme");
  const globexKey = hubIdentity("globex");
  const acme = await startOrg("acme", acmeKey, [
    { ...peerEntry("globex", globexKey), events: events.acme },
  ]);
  orgs.push(acme);
  const globex = await startOrg(
    "globex",
    globexKey,
    [{ ...peerEntry("acme", acmeKey, acme.federation.url), events: events.globex }],
    { listen: false },
  );
  orgs.push(globex);
  const alice = await acme.agent("alice");
  const bob = await globex.agent("bob");
  await until(() => acme.federation.registry.get(bob.id.id) !== undefined, "bob vouched");
  await until(() => globex.federation.registry.get(alice.id.id) !== undefined, "alice vouched");
  return { acme, globex, alice, bob, acmeKey };
}

/** Sends a signed message from `from`; resolves with the hub's answer. */
const send = (from: Agent, init: Record<string, unknown>) =>
  sendSigned(from, init as Parameters<typeof sendSigned>[1]);

function subscribe(bob: Agent, to: string) {
  return send(bob, {
    type: "ocp.event.subscribe",
    to,
    payload: { subscriptionId: "sub-1", eventTypes: ["build.*"] },
  });
}

function publishPayload(agent: string, eventId: string, eventData: unknown) {
  return {
    eventId,
    eventType: "build.failed",
    eventData,
    timestamp: new Date().toISOString(),
    source: agent,
  };
}

function publish(alice: Agent, eventId: string, eventData: unknown = { job: "ci" }) {
  return send(alice, {
    type: "ocp.event.publish",
    to: "broadcast",
    payload: publishPayload(alice.id.id, eventId, eventData),
  });
}

const notes = (agent: RawAgent) =>
  agent
    .delivered()
    .map((d) => JSON.parse(d) as Record<string, unknown>)
    .filter((m) => m["type"] === "ocp.event.notification");

const eventIds = (agent: RawAgent) =>
  notes(agent).map((n) => (n["payload"] as { event: { eventId: string } }).event.eventId);

describe("federation: events (opt-in)", () => {
  it("with events: true Bob (globex) subscribes at acme and gets Alice's matching publish, hub-signed, its ocpPublish verifiable with her key", async () => {
    const { acme, alice, bob, acmeKey } = await linked({ acme: true, globex: true });
    expect((await subscribe(bob, alice.id.id)).code).toBeUndefined();
    await until(() => acme.hub.subscriptions.size === 1, "bob's subscription applied at acme");
    const { message } = await publish(alice, "ev-1");
    await until(() => eventIds(bob.raw).includes("ev-1"), "the notification at bob");
    const note = notes(bob.raw)[0]!;
    expect(note["from"]).toBe(acmeKey.id);
    expect(note["to"]).toBe(bob.id.id);
    const hubKey = (id: string) => (id === acmeKey.id ? acmeKey.publicKey : undefined);
    expect(verifyMessageSync(note, hubKey, nativeEd25519).ok).toBe(true);
    const ocpPublish = (note["payload"] as { ocpPublish: Record<string, unknown> }).ocpPublish;
    expect(ocpPublish["id"]).toBe(message.id);
    const aliceKey = (id: string) => (id === alice.id.id ? alice.id.publicKey : undefined);
    expect(verifyMessageSync(ocpPublish, aliceKey, nativeEd25519).ok).toBe(true);
    // A publish Bob's subscription does not match never reaches him.
    await send(alice, {
      type: "ocp.event.publish",
      to: "broadcast",
      payload: { ...publishPayload(alice.id.id, "ev-other", {}), eventType: "deploy.done" },
    });
    await publish(alice, "ev-2");
    await until(() => eventIds(bob.raw).includes("ev-2"), "the second notification");
    expect(eventIds(bob.raw)).toEqual(["ev-1", "ev-2"]);
    expect(acme.audit.entries().some((e) => e.event === "delivered" && e.id === message.id)).toBe(
      true,
    );
  });

  it("without acme's opt-in Bob's subscription is refused federation_withheld (audited on both sides) and no event crosses", async () => {
    const { acme, globex, alice, bob } = await linked({ acme: false, globex: true });
    await subscribe(bob, alice.id.id);
    await until(
      () =>
        globex.audit
          .entries()
          .some((e) => e.code === "federation_withheld" && e.reason?.includes("refused by")),
      "the subscription refused by acme",
    );
    expect(
      acme.audit
        .entries()
        .some((e) => e.code === "federation_withheld" && e.reason?.includes("events are not")),
    ).toBe(true);
    expect(acme.hub.subscriptions.size).toBe(0);
    expect(alice.raw.delivered().some((d) => d.includes("ocp.event.subscribe"))).toBe(false);
    await publish(alice, "ev-1");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(notes(bob.raw)).toEqual([]);
  });

  it("without globex's opt-in its hub does not forward Bob's subscription (federation_withheld, audited)", async () => {
    const { acme, globex, alice, bob } = await linked({ acme: true, globex: false });
    await subscribe(bob, alice.id.id);
    await until(
      () =>
        globex.audit
          .entries()
          .some((e) => e.code === "federation_withheld" && e.to?.includes(alice.id.id) === true),
      "the subscription withheld at globex",
    );
    await publish(alice, "ev-1");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(acme.hub.subscriptions.size).toBe(0);
    expect(notes(bob.raw)).toEqual([]);
  });

  it("an event carrying a team or workspace node does not reach Bob (withheld, audited); a public one does", async () => {
    const { acme, alice, bob } = await linked({ acme: true, globex: true });
    await subscribe(bob, alice.id.id);
    await until(() => acme.hub.subscriptions.size === 1, "bob's subscription applied at acme");
    const team = await publish(alice, "ev-team", {
      node: node(alice.id.id, "n-team", { visibility: "team" }),
    });
    const workspace = await publish(alice, "ev-workspace", {
      node: node(alice.id.id, "n-workspace", { visibility: "workspace" }),
    });
    await publish(alice, "ev-public", {
      node: node(alice.id.id, "n-public", { visibility: "public" }),
    });
    await until(() => eventIds(bob.raw).includes("ev-public"), "the public event at bob");
    expect(eventIds(bob.raw)).toEqual(["ev-public"]);
    const withheld = acme.audit
      .entries()
      .filter((e) => e.code === "federation_withheld")
      .map((e) => e.id);
    expect(withheld).toContain(workspace.message.id);
    expect(
      acme.audit.entries().some((e) => e.event === "delivered" && e.id === team.message.id),
    ).toBe(false);
  });
});

describe("federation: events across a restart", () => {
  it("a remote subscription kept in the store still gets events after its hub restarts", async () => {
    const acmeKey = hubIdentity("acme");
    const globexKey = hubIdentity("globex");
    const globex = await startOrg("globex", globexKey, [
      { ...peerEntry("acme", acmeKey), events: true },
    ]);
    orgs.push(globex);
    const temp = tempDir("ocp-fed-acme-restart-");
    orgs.push({ close: async () => temp.cleanup() } as Org); // after acme closes
    const acmeFile = [{ ...peerEntry("globex", globexKey, globex.federation.url), events: true }];
    const first = await startOrg("acme", acmeKey, acmeFile, { dir: temp.dir, listen: false });
    const alice = await first.agent("alice");
    const bob = await globex.agent("bob");
    await until(() => first.federation.registry.get(bob.id.id) !== undefined, "bob vouched");
    await subscribe(bob, alice.id.id);
    await until(() => first.hub.subscriptions.size === 1, "bob's subscription applied");
    await first.close();
    const acme = await startOrg("acme", acmeKey, acmeFile, { dir: temp.dir, listen: false });
    orgs.push(acme);
    expect(acme.hub.subscriptions.size).toBe(1);
    const carol = await acme.agent("carol");
    await until(() => acme.federation.links()[0]!.open, "the link again");
    await publish(carol, "ev-after-restart");
    await until(() => eventIds(bob.raw).includes("ev-after-restart"), "the event after restart");
  });
});

describe("federation: events from a malicious peer", () => {
  /** A notification to `to` signed as `hub` (with `signer`'s key) carrying `author`'s publish. */
  function forged(
    hub: string,
    signer: AgentIdentity,
    author: AgentIdentity,
    to: string,
    eventData: unknown = {},
  ) {
    const publish = signedMessage(
      author,
      {
        type: "ocp.event.publish",
        to: "broadcast",
        payload: publishPayload(author.id, `ev-${Math.random()}`, eventData),
      },
      { backend: nativeEd25519 },
    );
    const note = createMessage({
      type: "ocp.event.notification",
      from: hub,
      to,
      payload: { subscriptionId: "sub-1", event: publish.payload, ocpPublish: publish },
    } as Parameters<typeof createMessage>[0]);
    return JSON.stringify(signObject(note, signer.secretKey));
  }

  it("a forged notification is refused with a named code and never reaches Bob: an acme agent's publish, another key's signature, another hub's name, a team node, an agent not of this hub", async () => {
    const acmeKey = hubIdentity("acme");
    const globexKey = hubIdentity("globex");
    const evilKey = hubIdentity("evil");
    const acme = await startOrg("acme", acmeKey, [peerEntry("globex", globexKey)]);
    orgs.push(acme);
    const globex = await startOrg("globex", globexKey, [
      { ...peerEntry("acme", acmeKey, acme.federation.url), events: true },
      { ...peerEntry("evil", evilKey), events: true },
    ]);
    orgs.push(globex);
    const alice = await acme.agent("alice");
    const bob = await globex.agent("bob");
    await until(() => globex.federation.registry.get(alice.id.id) !== undefined, "alice vouched");
    const evil = await evilPeer(globex.federation.url!, evilKey, sockets);
    const mallory = generateIdentity("a2a://evil/mallory");
    const card = createAgentProfile(mallory, { extra: { visibility: "public" } }, nativeEd25519);
    evil.send("ocp.fed.agents", { cards: [card] });
    await until(() => globex.federation.registry.get(mallory.id) !== undefined, "mallory vouched");
    // An acme agent's publish (her real key) forwarded by evil: not an agent evil vouched for.
    evil.send("ocp.fed.event", { raw: forged(evilKey.id, evilKey, alice.id, bob.id.id) });
    await until(() => evil.rejected("federation_spoofed").length === 1, "federation_spoofed");
    // Evil's own agent, the notification signed by a key other than evil's hub key.
    const other = generateIdentity(evilKey.id);
    evil.send("ocp.fed.event", { raw: forged(evilKey.id, other, mallory, bob.id.id) });
    await until(() => evil.rejected("signature_invalid").length === 1, "signature_invalid");
    // In acme's hub's name: not the hub of this link.
    evil.send("ocp.fed.event", { raw: forged(acmeKey.id, evilKey, mallory, bob.id.id) });
    await until(() => evil.rejected("sender_mismatch").length === 1, "sender_mismatch");
    // Well signed, but the event carries a team node.
    const teamNode = { node: node(mallory.id, "n-team", { visibility: "team" }) };
    evil.send("ocp.fed.event", { raw: forged(evilKey.id, evilKey, mallory, bob.id.id, teamNode) });
    await until(() => evil.rejected("federation_withheld").length === 1, "federation_withheld");
    // Well signed, but for none of globex's agents (one never seen there, the peer's own).
    evil.send("ocp.fed.event", {
      raw: forged(evilKey.id, evilKey, mallory, "a2a://globex/nobody"),
    });
    evil.send("ocp.fed.event", { raw: forged(evilKey.id, evilKey, mallory, mallory.id) });
    await until(() => evil.rejected("recipient_unknown").length === 2, "recipient_unknown");
    expect(HUB_ERROR_CODES.recipient_unknown).toContain("a federated event names none");
    // The honest control: the same well-formed notification without the node is delivered.
    evil.send("ocp.fed.event", { raw: forged(evilKey.id, evilKey, mallory, bob.id.id) });
    await until(() => notes(bob.raw).length === 1, "the well-formed notification");
    expect(notes(bob.raw)[0]!["from"]).toBe(evilKey.id);
    const audited = globex.audit.entries().map((e) => e.code);
    for (const code of [
      "federation_spoofed",
      "signature_invalid",
      "sender_mismatch",
      "federation_withheld",
      "recipient_unknown",
    ]) {
      expect(audited).toContain(code);
    }
  });
});
