import { createMessage, signObject, verifyObject } from "@ocp/a2a-ocp-messaging";
import { publicKeyFromBase64 } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { client, identity, accessNode as node, until } from "@ocp/testkit";
import { type ClusterContext, transport } from "@ocp/testkit/nats";
import { expect, it } from "vitest";
import { subscribeEvents } from "../support.js";

/** Every hub-level feature between agents attached to different hubs. */
export function hubFeatureTests(ctx: ClusterContext): void {
  it("delivers a direct message from an agent on one hub to an agent on another, committed and in sequence", async () => {
    const alice = await ctx.join("alice", 0);
    const bob = await ctx.join("bob", 1);
    const receipt = await alice.client.send({
      type: "ocp.knowledge.stream",
      to: bob.id.id,
      payload: {
        streamId: "s",
        nodes: [node(alice.id.id, "n1")],
        isIncremental: true,
        sequenceNumber: 1,
      },
    });
    expect(receipt).toMatchObject({ durable: true, recipients: 1, duplicate: false });
    await until(() => bob.received.length === 1, "bob's delivery");
    expect(bob.received[0]?.seq).toBe(1);
    expect(bob.received[0]?.message.from).toBe(alice.id.id);
  });

  it("sends a transient broadcast once to every agent on every hub but the sender (awareness)", async () => {
    const sender = await ctx.join("beacon", 0);
    const sameHub = await ctx.join("same-hub", 0);
    const second = await ctx.join("second-hub", 1);
    const third = await ctx.join("third-hub", 2);
    const receipt = await sender.client.send({
      type: "ocp.awareness.beacon",
      to: "broadcast",
      payload: { status: "working", availability: "available", currentContext: { task: "t" } },
    });
    expect(receipt.durable).toBe(false);
    const mine = (r: typeof sameHub) =>
      r.received.filter((m) => m.message.id === receipt.id).length;
    await until(
      () => mine(sameHub) === 1 && mine(second) === 1 && mine(third) === 1,
      "the beacon on three hubs",
    );
    // A later message on the same path proves nothing else of the beacon is in flight.
    const marker = await sender.client.send({
      type: "ocp.custom.marker",
      to: third.id.id,
      payload: {},
    });
    await until(() => third.received.some((m) => m.message.id === marker.id), "the marker");
    expect(mine(sender)).toBe(0);
    expect([mine(sameHub), mine(second), mine(third)]).toEqual([1, 1, 1]);
  });

  it("§8.5 across hubs: a broadcast carrying a private node reaches only the agents it is shared with", async () => {
    const author = await ctx.join("private-author", 0);
    const sameHub = await ctx.join("private-same-hub", 0);
    const sharedFar = await ctx.join("private-shared-far", 2);
    const excludedFar = await ctx.join("private-excluded-far", 1);
    const secret = node(author.id.id, "secret-1", {
      visibility: "private",
      sharedWith: [sharedFar.id.id],
    });
    const receipt = await author.client.send({
      type: "ocp.custom.finding",
      to: "broadcast",
      payload: { finding: secret },
    });
    expect(receipt).toMatchObject({ durable: false, recipients: 1 });
    expect(receipt.excluded).toBeGreaterThanOrEqual(2);
    await until(
      () => sharedFar.received.some((m) => m.message.id === receipt.id),
      "the private finding on the hub of the agent it is shared with",
    );
    // A later broadcast everyone may see, through the same paths, proves nothing else is in flight.
    const open = await author.client.send({
      type: "ocp.custom.finding",
      to: "broadcast",
      payload: { finding: node(author.id.id, "open-1") },
    });
    const got = (r: typeof sameHub, id: string) => r.received.some((m) => m.message.id === id);
    await until(
      () => got(sameHub, open.id) && got(excludedFar, open.id) && got(sharedFar, open.id),
      "the open finding everywhere",
    );
    expect(got(sameHub, receipt.id)).toBe(false);
    expect(got(excludedFar, receipt.id)).toBe(false);
  });

  it("routes ocp.event.publish by type subject to subscribers on other hubs (wildcards, filters), only them, as their hub's signed notifications", async () => {
    const publisher = await ctx.join("publisher", 0);
    const wild = await ctx.join("wild", 1);
    const deep = await ctx.join("deep", 2);
    const filtered = await ctx.join("filtered", 2);
    const bystander = await ctx.join("bystander", 1);
    await subscribeEvents(wild.client, "w", ["code.*"]);
    await subscribeEvents(deep.client, "d", ["code.**", "code.deployed"]);
    await subscribeEvents(filtered.client, "f", ["code.deployed"], { environment: "production" });
    const publish = (eventType: string, environment: string) =>
      publisher.client.send({
        type: "ocp.event.publish",
        to: "broadcast",
        payload: {
          eventId: `e-${eventType}-${environment}`,
          eventType,
          eventData: { environment },
          timestamp: new Date().toISOString(),
          source: publisher.id.id,
        },
      });
    const staging = await publish("code.deployed", "staging");
    const production = await publish("code.deployed", "production");
    const nested = await publish("code.review.done", "production");
    const other = await publish("bug.found", "production");
    // §5.5.4 as on a single hub: subscribers get notifications, never the raw publish.
    const notes = (r: typeof wild) =>
      r.received.filter((m) => m.message.type === "ocp.event.notification");
    const ids = (r: typeof wild) =>
      notes(r).map((m) => (m.message.payload as { ocpPublish: { id: string } }).ocpPublish.id);
    await until(() => ids(wild).length === 2, "wild gets code.deployed twice");
    await until(() => ids(deep).length === 3, "deep gets every code.** event once");
    await until(() => ids(filtered).length === 1, "filtered gets production only");
    // A direct marker after the events: anything routed wrongly would have arrived by then.
    for (const r of [wild, deep, filtered, bystander]) {
      const marker = await publisher.client.send({
        type: "ocp.custom.marker",
        to: r.id.id,
        payload: {},
      });
      await until(() => r.received.some((m) => m.message.id === marker.id), "the marker");
    }
    expect(ids(wild)).toEqual([staging.id, production.id]);
    expect(ids(deep)).toEqual([staging.id, production.id, nested.id]);
    expect(ids(filtered)).toEqual([production.id]);
    expect(ids(bystander)).toEqual([]);
    expect(ids(publisher)).toEqual([]);
    expect(other.durable).toBe(false);
    for (const r of [wild, deep, filtered, bystander]) {
      expect(r.received.filter((m) => m.message.type === "ocp.event.publish")).toEqual([]);
    }
    // Each notification: signed by the subscriber's own hub, for its subscription, carrying
    // the publisher's signed publish and its payload as the event.
    for (const [r, subscriptionId] of [
      [wild, "w"],
      [deep, "d"],
      [filtered, "f"],
    ] as const) {
      const hub = r.client.hub!;
      for (const note of notes(r)) {
        expect(note.message.from).toBe(hub.id);
        expect(verifyObject(JSON.parse(note.raw), publicKeyFromBase64(hub.publicKey)!)).toBe(true);
        const payload = note.message.payload as {
          subscriptionId: string;
          event: { eventId: string };
          ocpPublish: Record<string, unknown>;
        };
        expect(payload.subscriptionId).toBe(subscriptionId);
        expect(note.message.correlation_id).toBe(payload.ocpPublish["id"]);
        expect(verifyObject(payload.ocpPublish, publisher.id.publicKey)).toBe(true);
        expect(payload.event.eventId).toBe(
          (payload.ocpPublish["payload"] as { eventId: string }).eventId,
        );
      }
    }
  });

  it("notifies once per matching subscription of one agent, each with its own subscriptionId (§5.5.4)", async () => {
    const publisher = await ctx.join("multi-publisher", 2);
    const subscriber = await ctx.join("multi-subscriber", 0);
    for (const [subscriptionId, eventTypes] of [
      ["exact", ["ops.alert"]],
      ["wide", ["ops.*", "ops.**"]],
    ] as const) {
      await subscribeEvents(subscriber.client, subscriptionId, [...eventTypes]);
    }
    const sent = await publisher.client.send({
      type: "ocp.event.publish",
      to: "broadcast",
      payload: {
        eventId: "alert-1",
        eventType: "ops.alert",
        eventData: {},
        timestamp: new Date().toISOString(),
        source: publisher.id.id,
      },
    });
    const marker = await publisher.client.send({
      type: "ocp.custom.marker",
      to: subscriber.id.id,
      payload: {},
    });
    await until(() => subscriber.received.some((m) => m.message.id === marker.id), "the marker");
    await until(
      () => subscriber.received.filter((m) => m.message.correlation_id === sent.id).length === 2,
      "two notifications",
    );
    const forSent = subscriber.received.filter((m) => m.message.correlation_id === sent.id);
    expect(forSent.map((m) => m.message.type)).toEqual([
      "ocp.event.notification",
      "ocp.event.notification",
    ]);
    expect(
      forSent.map((m) => (m.message.payload as { subscriptionId: string }).subscriptionId).sort(),
    ).toEqual(["exact", "wide"]);
  });

  it("answers a collective query asked on one hub with direct responses from agents on the others", async () => {
    const asker = await ctx.join("asker", 0);
    const answerers = [await ctx.join("answer-b", 1), await ctx.join("answer-c", 2)];
    for (const a of answerers) {
      a.client.on("message", (m) => {
        // Only this test's query: later tests' agents ask their own.
        if (m.message.type !== "ocp.collective.query") return;
        if ((m.message.payload as { queryId: string }).queryId !== "q-cluster") return;
        void a.client.send({
          type: "ocp.collective.response",
          to: m.message.from,
          correlation_id: m.message.id,
          payload: {
            queryId: (m.message.payload as { queryId: string }).queryId,
            findings: [{ node: node(a.id.id, `${a.id.id}#answer`), relevance: 0.9 }],
            confidence: 0.8,
            processingTime: 1,
          },
        });
      });
    }
    await asker.client.send({
      type: "ocp.collective.query",
      to: "broadcast",
      payload: { queryId: "q-cluster", query: "how do we deploy?", timeout: 5000, minResponses: 2 },
    });
    const responses = () =>
      asker.received.filter((m) => m.message.type === "ocp.collective.response");
    await until(() => responses().length >= 2, "two responses");
    expect(new Set(responses().map((m) => m.message.from))).toEqual(
      new Set(answerers.map((a) => a.id.id)),
    );
  });

  it("consensus across hubs: every vote reaches the proposer exactly once, one tally, decided once", async () => {
    const proposer = await ctx.join("proposer", 0);
    const voters = [
      await ctx.join("voter-a", 0),
      await ctx.join("voter-b", 1),
      await ctx.join("voter-c", 2),
    ];
    const proposalId = "prop-cluster";
    await proposer.client.send({
      type: "ocp.consensus.propose",
      to: "broadcast",
      payload: {
        proposalId,
        topic: "Adopt NATS",
        proposal: { decision: "cluster the hubs" },
        votingPeriod: 60,
        requiredVotes: 3,
        votingRule: "majority",
      },
    });
    for (const v of voters) {
      await until(
        () => v.received.some((m) => m.message.type === "ocp.consensus.propose"),
        "the proposal on every hub",
      );
    }
    const choices = ["approve", "approve", "reject"] as const;
    await Promise.all(
      voters.map((v, i) =>
        v.client.send({
          type: "ocp.consensus.vote",
          to: "broadcast",
          payload: { proposalId, vote: choices[i]!, votedBy: v.id.id },
        }),
      ),
    );
    // The proposer tallies: the votes it received, by voter.
    const votes = () => proposer.received.filter((m) => m.message.type === "ocp.consensus.vote");
    await until(() => votes().length >= 3, "three votes at the proposer");
    const tally = { approve: 0, reject: 0, abstain: 0 };
    for (const m of votes()) tally[(m.message.payload as { vote: keyof typeof tally }).vote] += 1;
    expect(tally).toEqual({ approve: 2, reject: 1, abstain: 0 });
    await proposer.client.send({
      type: "ocp.consensus.achieved",
      to: "broadcast",
      payload: {
        proposalId,
        outcome: "approved",
        votes: tally,
        voters: votes().map((m) => m.message.from),
        achievedAt: new Date().toISOString(),
      },
    });
    for (const v of voters) {
      await until(
        () => v.received.some((m) => m.message.type === "ocp.consensus.achieved"),
        "the decision on every hub",
      );
    }
    const marker = await voters[0]!.client.send({
      type: "ocp.custom.marker",
      to: proposer.id.id,
      payload: {},
    });
    await until(() => proposer.received.some((m) => m.message.id === marker.id), "the marker");
    expect(votes()).toHaveLength(3);
    for (const v of voters) {
      expect(v.received.filter((m) => m.message.type === "ocp.consensus.achieved")).toHaveLength(1);
    }
  });

  it("keeps knowledge for an offline agent in JetStream and delivers it when it comes back on another hub", async () => {
    const writer = await ctx.join("writer", 0);
    const roamer = await ctx.join("roamer", 2);
    await roamer.client.close();
    const lastSeq = roamer.client.lastSeq;
    const receipt = await writer.client.send({
      type: "ocp.knowledge.stream",
      to: "broadcast",
      payload: {
        streamId: "team",
        nodes: [node(writer.id.id, "kept-for-roamer")],
        isIncremental: true,
        sequenceNumber: 1,
      },
    });
    expect(receipt.durable).toBe(true);
    const back = await ctx.rejoin(roamer.id, 1, { lastSeq });
    await until(() => back.received.some((m) => m.message.id === receipt.id), "the kept stream");
  });

  it("refuses a resend of a committed message through another hub as a duplicate (Nats-Msg-Id), delivered once", async () => {
    const sender = await ctx.join("resender", 0);
    const target = await ctx.join("target", 2);
    const other = await ctx.rejoin(sender.id, 1);
    const wire = signObject(
      createMessage({
        type: "ocp.knowledge.stream",
        from: sender.id.id,
        to: target.id.id,
        payload: {
          streamId: "x",
          nodes: [node(sender.id.id, "once")],
          isIncremental: true,
          sequenceNumber: 1,
        },
      }) as Record<string, unknown>,
      sender.id.secretKey,
      nativeEd25519,
    );
    const first = await sender.client.send(wire as never);
    expect(first.durable).toBe(true);
    await expect(other.client.send(wire as never)).rejects.toMatchObject({
      code: "replay_detected",
    });
    const marker = await sender.client.send({
      type: "ocp.custom.marker",
      to: target.id.id,
      payload: {},
    });
    await until(() => target.received.some((m) => m.message.id === marker.id), "the marker");
    expect(target.received.filter((m) => m.message.id === first.id)).toHaveLength(1);
  });

  it("pins an agent's first key cluster-wide: another key for the same id is refused on another hub", async () => {
    const owner = await ctx.join("owner", 0);
    const impostor = { ...identity("impostor"), id: owner.id.id };
    await expect(
      client(ctx.hubs[2]!.url, impostor, { transport, reconnect: false }),
    ).rejects.toThrow(/another key/);
  });
}
