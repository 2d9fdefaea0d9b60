import { HubClient as Client } from "@ocp/a2a-ocp-client";
import {
  createAgentProfile,
  createMessage,
  generateIdentity,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { buildAnnouncement } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { client, hubPerTest, identity, node, subscribeEvents, until } from "./support.js";

const fixture = hubPerTest();
const { clients } = fixture;
const join = (name: string, options = {}) => fixture.join(name, options);

describe("OCPHub routing", () => {
  it("delivers a direct message, verified, and acknowledges it as committed", async () => {
    const alice = await join("alice");
    const bob = await join("bob");
    const receipt = await alice.client.send({
      type: "ocp.custom.hello",
      to: bob.id.id,
      payload: { text: "hi" },
    });
    expect(receipt).toMatchObject({ durable: true, recipients: 1, duplicate: false });
    await until(() => bob.received.length === 1, "bob's delivery");
    expect(bob.received[0]?.message.from).toBe(alice.id.id);
    expect(bob.received[0]?.seq).toBe(1);
    expect(alice.received).toHaveLength(0);
  });

  it("routes multicast to the listed agents only and broadcasts to everyone but the sender", async () => {
    const [a, b, c, d] = [await join("a"), await join("b"), await join("c"), await join("d")];
    await a.client.send({ type: "ocp.custom.note", to: [b.id.id, c.id.id], payload: { n: 1 } });
    const beacon = await a.client.send({
      type: "ocp.awareness.beacon",
      to: "broadcast",
      payload: { status: "working", availability: "available" },
    });
    expect(beacon).toMatchObject({ durable: false, recipients: 3 });
    await until(() => b.received.length === 2 && c.received.length === 2, "multicast + broadcast");
    await until(() => d.received.length === 1, "broadcast to d");
    expect(d.received[0]?.message.type).toBe("ocp.awareness.beacon");
    expect(a.received).toHaveLength(0);
  });

  it("delivers ocp.event.publish only to matching subscriptions (wildcards and filters)", async () => {
    const pub = await join("pub");
    const wild = await join("wild");
    const filtered = await join("filtered");
    const other = await join("other");
    await subscribeEvents(wild.client, "s1", ["code.*"]);
    await subscribeEvents(filtered.client, "s2", ["code.deployed"], { environment: "production" });
    await subscribeEvents(other.client, "s3", ["bug.*"]);
    const event = (eventType: string, environment: string) => ({
      type: "ocp.event.publish" as const,
      to: "broadcast",
      payload: {
        eventId: `e-${eventType}-${environment}`,
        eventType,
        eventData: { environment },
        timestamp: new Date().toISOString(),
        source: pub.id.id,
      },
    });
    expect(await pub.client.send(event("code.deployed", "staging"))).toMatchObject({
      recipients: 1,
    });
    expect(await pub.client.send(event("code.deployed", "production"))).toMatchObject({
      recipients: 2,
    });
    // §5.5.4: subscribers receive hub-signed notifications, one per matching subscription.
    const events = (r: typeof wild.received) =>
      r.filter((m) => m.message.type === "ocp.event.notification").length;
    await until(() => events(wild.received) === 2 && events(filtered.received) === 1, "events");
    expect(events(other.received)).toBe(0);
  });

  it("replays what an agent missed while offline, in order, after it reconnects", async () => {
    const alice = await join("alice");
    const bobId = identity("bob");
    const bob = await client(fixture.hub.url, bobId);
    await until(() => fixture.hub.connectedAgents().includes(bobId.id), "bob registered");
    await bob.client.close();
    for (let i = 1; i <= 5; i++) {
      await alice.client.send({ type: "ocp.custom.n", to: bobId.id, payload: { i } });
    }
    const again = await client(fixture.hub.url, bobId);
    clients.push(again.client);
    await until(() => again.received.length === 5, "replayed deliveries");
    expect(again.received.map((m) => (m.message.payload as { i: number }).i)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(again.received.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("OCPHub security", () => {
  it("refuses a forged announcement (profile of one key, signed by another) with 4001", async () => {
    const victim = identity("victim");
    const forger = generateIdentity(victim.id);
    const forged = new Client({
      url: fixture.hub.url,
      identity: forger,
      profile: createAgentProfile(victim, {}, nativeEd25519),
      reconnect: false,
    });
    await expect(forged.connect()).rejects.toMatchObject({ code: "authentication_failed" });
    expect(fixture.hub.connectedAgents()).not.toContain(victim.id);
  });

  it("refuses frames nested far deeper than a call stack: first frame 4001, a registered agent's message_too_deep; and goes on", async () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    for (const frame of [deep, `{"type":"ocp.agent.announce","payload":${deep}}`]) {
      const ws = new WebSocket(fixture.hub.url, ["a2a-ocp-v1"]);
      await new Promise((resolve, reject) => {
        ws.once("open", resolve);
        ws.once("error", reject);
      });
      const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
      ws.send(frame);
      expect(await closed).toBe(4001);
    }
    // A registered agent's frame as deep: refused with message_too_deep, the connection kept.
    const id = identity("deep");
    const ws = new WebSocket(fixture.hub.url, ["a2a-ocp-v1"]);
    const frames: string[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.once("error", reject);
      ws.on("message", (data) => {
        const text = data.toString();
        const frame = JSON.parse(text) as { type: string; payload: { nonce: string } };
        if (frame.type === "ocp.connection.ack") {
          const profile = createAgentProfile(id, {}, nativeEd25519);
          ws.send(buildAnnouncement(id, profile, frame.payload.nonce, undefined, nativeEd25519));
        } else if (frame.type === "ocp.connection.registered") resolve();
        else frames.push(text);
      });
    });
    ws.send(`{"type":"ocp.custom.x","payload":${deep}}`);
    await until(() => frames.some((f) => f.includes("message_too_deep")), "refusal");
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
    // The hub still admits and routes.
    const alice = await join("alice");
    const bob = await join("bob");
    await alice.client.send({ type: "ocp.custom.after", to: bob.id.id, payload: {} });
    await until(() => bob.received.length === 1, "delivery after the deep frames");
  });

  it("refuses an agent whose key has small order with 4001: its 'signatures' need no secret", async () => {
    // With the identity point as public key, the signature "identity point, S = 0" verifies
    // for every message under bare OpenSSL: anyone could register this profile and then sign
    // as the agent. The profile and the announcement below are signed with no secret at all.
    const identityPoint = new Uint8Array(32);
    identityPoint[0] = 1;
    const forgedSignature = new Uint8Array(64);
    forgedSignature[0] = 1;
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
    const real = createAgentProfile(identity("keyless"), {}, nativeEd25519);
    const profile = { ...real, publicKey: b64(identityPoint), signature: b64(forgedSignature) };
    const ws = new WebSocket(fixture.hub.url, ["a2a-ocp-v1"]);
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    const frames: string[] = [];
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; payload: { nonce: string } };
      frames.push(frame.type);
      if (frame.type !== "ocp.connection.ack") return;
      const announcement = JSON.parse(
        buildAnnouncement(identity("signer"), profile, frame.payload.nonce, undefined),
      ) as Record<string, unknown>;
      ws.send(JSON.stringify({ ...announcement, signature: b64(forgedSignature) }));
    });
    expect(await closed).toBe(4001);
    expect(frames).not.toContain("ocp.connection.registered");
    expect(fixture.hub.connectedAgents()).not.toContain(profile.id);
  });

  it("refuses an agent id already registered with another key (key pinning) with 4002", async () => {
    const first = await join("pinned");
    await first.client.close();
    const impostor = new Client({
      url: fixture.hub.url,
      identity: generateIdentity(first.id.id),
      reconnect: false,
    });
    await expect(impostor.connect()).rejects.toMatchObject({ code: "registration_refused" });
  });

  it("refuses a message whose from is not the authenticated agent (sender_mismatch)", async () => {
    const alice = await join("alice");
    const mallory = await join("mallory");
    const spoofed = signObject(
      createMessage({ type: "ocp.custom.x", from: alice.id.id, to: "broadcast", payload: {} }),
      alice.id.secretKey,
    );
    await expect(mallory.client.send(spoofed)).rejects.toMatchObject({ code: "sender_mismatch" });
  });

  it("drops a tampered message with signature_invalid and tells the sender", async () => {
    const alice = await join("alice");
    const bob = await join("bob");
    const signed = signObject(
      createMessage({ type: "ocp.custom.x", from: alice.id.id, to: bob.id.id, payload: { a: 1 } }),
      alice.id.secretKey,
    );
    const tampered = { ...signed, payload: { a: 2 } };
    await expect(alice.client.send(tampered)).rejects.toMatchObject({ code: "signature_invalid" });
    expect(bob.received).toHaveLength(0);
  });

  it("drops a replayed message with replay_detected and tells the sender", async () => {
    const alice = await join("alice");
    const bob = await join("bob");
    const signed = signObject(
      createMessage({
        type: "ocp.awareness.beacon",
        from: alice.id.id,
        to: "broadcast",
        payload: { status: "working", availability: "available" },
      }),
      alice.id.secretKey,
    );
    await alice.client.send(signed);
    await expect(alice.client.send(signed)).rejects.toMatchObject({ code: "replay_detected" });
    await until(() => bob.received.length === 1, "the original");
  });

  it("drops an expired message with message_expired and tells the sender", async () => {
    const alice = await join("alice");
    const old = createMessage({
      type: "ocp.custom.x",
      from: alice.id.id,
      to: "broadcast",
      payload: {},
      ttl: 1,
      timestamp: new Date(Date.now() - 3_600_000).toISOString(),
    });
    await expect(alice.client.send(old)).rejects.toMatchObject({ code: "message_expired" });
  });

  it("applies rate limits per sender and refuses with rate_limited", async () => {
    await fixture.restart({ rateLimits: { messages: 3, broadcasts: 3 } });
    const alice = await join("alice");
    const send = () =>
      alice.client.send({ type: "ocp.custom.x", to: "broadcast", payload: {} }).then(
        () => "ok",
        (e: { code: string }) => e.code,
      );
    const results = [await send(), await send(), await send(), await send()];
    expect(results).toEqual(["ok", "ok", "ok", "rate_limited"]);
  });

  it("§8.5 never delivers a private node to another agent; sharedWith and team grant access", async () => {
    const alice = await join("alice");
    const bob = await join("bob");
    const carol = await join("carol");
    const stream = (nodes: ReturnType<typeof node>[]) => ({
      type: "ocp.knowledge.stream" as const,
      to: "broadcast",
      payload: { streamId: "s", nodes, isIncremental: true, sequenceNumber: 0 },
    });
    const priv = await alice.client.send(
      stream([node(alice.id.id, "p", { visibility: "private" })]),
    );
    expect(priv).toMatchObject({ recipients: 0, excluded: 2 });
    const shared = await alice.client.send(
      stream([node(alice.id.id, "s", { visibility: "private", sharedWith: [bob.id.id] })]),
    );
    expect(shared).toMatchObject({ recipients: 1, excluded: 1 });
    await until(() => bob.received.length === 1, "shared node");
    expect(carol.received).toHaveLength(0);
  });
});

describe("OCPHub configuration", () => {
  it("admits only agents on the allow-list of profiles (4002 otherwise)", async () => {
    const member = identity("member");
    await fixture.restart({
      allowedProfiles: [createAgentProfile(member, {}, nativeEd25519)],
    });
    const joined = await client(fixture.hub.url, member);
    clients.push(joined.client);
    const stranger = new Client({
      url: fixture.hub.url,
      identity: identity("stranger"),
      reconnect: false,
    });
    await expect(stranger.connect()).rejects.toMatchObject({ code: "registration_refused" });
  });

  it("§8.3 with verifyForwarded off, a tampered broadcast is still dropped by its recipients", async () => {
    await fixture.restart({ verifyForwarded: false });
    const alice = await join("alice");
    const bob = await join("bob");
    const dropped: string[] = [];
    bob.client.on("dropped", (d) => dropped.push(d.code));
    const signed = signObject(
      createMessage({
        type: "ocp.custom.x",
        from: alice.id.id,
        to: "broadcast",
        payload: { a: 1 },
      }),
      alice.id.secretKey,
    );
    await alice.client.send({ ...signed, payload: { a: 2 } });
    await until(() => dropped.length === 1, "bob's verdict");
    expect(dropped).toEqual(["signature_invalid"]);
    expect(bob.received).toHaveLength(0);
  });

  it("keeps event subscriptions across a hub restart on the same SQLite file", async () => {
    const pub = await join("pub");
    const sub = await join("sub");
    await subscribeEvents(sub.client, "s1", ["bug.**"]);
    await fixture.restart({ port: 0 });
    const pub2 = await client(fixture.hub.url, pub.id);
    const sub2 = await client(fixture.hub.url, sub.id);
    clients.push(pub2.client, sub2.client);
    const receipt = await pub2.client.send({
      type: "ocp.event.publish",
      to: "broadcast",
      payload: {
        eventId: "e1",
        eventType: "bug.found.critical",
        eventData: {},
        timestamp: new Date().toISOString(),
        source: pub.id.id,
      },
    });
    expect(receipt.recipients).toBe(1);
    await until(
      () => sub2.received.some((m) => m.message.type === "ocp.event.notification"),
      "event",
    );
  });

  it("sends a message made before the first registration once the client is registered", async () => {
    const bob = await join("bob");
    const early = new Client({ url: fixture.hub.url, identity: identity("early") });
    clients.push(early);
    const sent = early.send({ type: "ocp.custom.early", to: bob.id.id, payload: {} });
    await early.connect();
    expect(await sent).toMatchObject({ durable: true, recipients: 1 });
    await until(() => bob.received.length === 1, "the early message");
  });
});
