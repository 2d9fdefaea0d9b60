import type { DeliveredMessage, HubClient } from "@ocp/a2a-ocp-client";
import { type AgentIdentity, createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { accessNode as node, until } from "@ocp/testkit";
import type { ClusterContext } from "@ocp/testkit/nats";
import { expect, it } from "vitest";

/** Kills hub 2 with SIGKILL mid-stream; run it last. */
/** Durable stream `i` of `from` to `to`, signed: one node, the producer's sequence number `i`. */
export function signedStream(
  from: AgentIdentity,
  to: string | string[],
  i: number,
): Record<string, unknown> {
  return signObject(
    createMessage({
      type: "ocp.knowledge.stream",
      from: from.id,
      to,
      payload: {
        streamId: from.id,
        nodes: [node(from.id, `${from.id}#${i}`)],
        isIncremental: true,
        sequenceNumber: i,
      },
    }) as Record<string, unknown>,
    from.secretKey,
    nativeEd25519,
  );
}

export function failoverTests(ctx: ClusterContext): void {
  it("SIGKILL of a hub mid-stream: its agents move to another hub, every acknowledged message is delivered exactly once", async () => {
    const PER_PRODUCER = 60;
    const doomed = ctx.hubs[2]!;
    const inbox = [await ctx.join("sink-moving", 2), await ctx.join("sink-staying", 1)];
    const received: DeliveredMessage[][] = [[...inbox[0]!.received], [...inbox[1]!.received]];
    for (const [i, r] of inbox.entries()) {
      r.client.on("message", (m) => received[i]!.push(m));
    }
    // The moving agent's event subscription must follow it to its next hub.
    await inbox[0]!.client.send({
      type: "ocp.event.subscribe",
      to: "broadcast",
      payload: { subscriptionId: "follows-me", eventTypes: ["deploy.*"] },
    });
    const producers = await Promise.all(
      [0, 2].map(async (hub) => {
        const joined = await ctx.join(`producer-${hub}`, hub);
        let moveTo: (c: HubClient) => void = () => undefined;
        const moved = new Promise<HubClient>((resolve) => {
          moveTo = resolve;
        });
        return { id: joined.id, current: joined.client, moved, moveTo };
      }),
    );
    const acked = new Set<string>();
    const produce = async (p: (typeof producers)[number]) => {
      for (let i = 0; i < PER_PRODUCER; i++) {
        const wire = signedStream(
          p.id,
          inbox.map((r) => r.id.id),
          i,
        );
        let resent = false;
        for (;;) {
          try {
            await p.current.send(wire as never);
            break;
          } catch (error) {
            const code = (error as { code?: string }).code;
            // A resend the cluster already committed (its ack died with the hub).
            if (resent && code === "replay_detected") break;
            if (code !== "not_connected" && code !== "hub_timeout") throw error;
            p.current = await p.moved;
            resent = true;
          }
        }
        acked.add(String(wire["id"]));
      }
    };
    const streaming = Promise.all(producers.map(produce));
    await until(() => acked.size >= (2 * PER_PRODUCER) / 3, "a third acknowledged");
    const ackedAtKill = acked.size;
    doomed.child.kill("SIGKILL");
    await new Promise((resolve) => doomed.child.once("exit", resolve));
    // The moving agents reconnect to hub 0, from the last sequence they saw.
    const oldSink = inbox[0]!.client;
    await oldSink.close().catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    const moved = await ctx.rejoin(inbox[0]!.id, 0, { lastSeq: oldSink.lastSeq });
    moved.client.on("message", (m) => received[0]!.push(m));
    received[0]!.push(...moved.received);
    const doomedProducer = producers[1]!;
    const oldProducer = doomedProducer.current;
    const replacement = await ctx.rejoin(doomedProducer.id, 0);
    doomedProducer.moveTo(replacement.client);
    producers[0]!.moveTo(producers[0]!.current);
    await oldProducer.close().catch(() => undefined);
    await streaming;
    expect(ackedAtKill).toBeLessThan(2 * PER_PRODUCER);
    expect(acked.size).toBe(2 * PER_PRODUCER);
    const streamIds = (i: number) =>
      received[i]!.filter((m) => m.message.type === "ocp.knowledge.stream").map(
        (m) => m.message.id,
      );
    for (let i = 0; i < 2; i++) {
      await until(
        () => [...acked].every((id) => streamIds(i).includes(id)),
        `every acknowledged message at ${inbox[i]!.id.id}`,
      );
      const marker = await producers[0]!.current.send({
        type: "ocp.custom.marker",
        to: inbox[i]!.id.id,
        payload: {},
      });
      await until(() => received[i]!.some((m) => m.message.id === marker.id), "the marker");
      const ids = streamIds(i);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(acked);
      const seqs = received[i]!.map((m) => m.seq ?? 0);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
    }
    const event = await producers[1]!.current.send({
      type: "ocp.event.publish",
      to: "broadcast",
      payload: {
        eventId: "after-the-move",
        eventType: "deploy.done",
        eventData: {},
        timestamp: new Date().toISOString(),
        source: producers[1]!.id.id,
      },
    });
    await until(
      () =>
        received[0]!.some(
          (m) =>
            m.message.type === "ocp.event.notification" && m.message.correlation_id === event.id,
        ),
      "the event's notification at the moved agent's new hub",
    );
  });
}
