/**
 * Hubs on a real multi-node NATS: three `nats-server` processes clustered on
 * loopback (JetStream on each, its own store directory), the workspace's
 * streams and buckets with 3 replicas, three `ocp-hub --nats` processes
 * given every node. One NATS node is killed (SIGKILL by pid) mid-stream:
 * every message a hub acknowledged is delivered, exactly once, in sequence.
 * Every process is stopped by pid at the end.
 */
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import type { DeliveredMessage, HubClient } from "@ocp/a2a-ocp-client";
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { until } from "@ocp/testkit";
import { stopProcess } from "@ocp/testkit/nats";
import { describe, expect, it } from "vitest";
import { Subjects } from "../../src/nats/subjects.js";
import { signedStream } from "./failover.js";
import { threeNodes } from "./three-nodes.js";

const WORKSPACE = "node-failure";
const PER_PRODUCER = 150;
const IN_FLIGHT = 8;
/** Codes after which a producer resends the same message (its hub could not say it is stored). */
const RESEND = new Set(["store_failed", "hub_timeout", "not_connected"]);

const cluster = threeNodes(WORKSPACE, "ocp-nats-nodes-");
const { hubs, join } = cluster;

let resends = 0;

/**
 * Sends `wire` until the hub answers: an ack, or — for a resend after a
 * failed attempt — `replay_detected`; resends after `RESEND` codes.
 */
async function sendUntilAnswered(
  c: HubClient,
  wire: Record<string, unknown>,
): Promise<"acked" | "replayed"> {
  let resent = false;
  for (;;) {
    try {
      await c.send(wire as never);
      return "acked";
    } catch (error) {
      const code = (error as { code?: string }).code ?? "";
      if (resent && code === "replay_detected") return "replayed";
      if (!RESEND.has(code)) throw error;
      resent = true;
      resends += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe("hubs on a three-node NATS cluster (R3 streams): a NATS node dies", () => {
  it("SIGKILL of a NATS node mid-stream: every acknowledged message is delivered exactly once, in sequence", {
    timeout: 240_000,
  }, async () => {
    const sink = await join("sink", 1);
    const received: DeliveredMessage[] = [...sink.received];
    sink.client.on("message", (m) => received.push(m));
    const producers = [await join("producer-a", 0), await join("producer-b", 2)];

    // The sink's inbox is a stream with three replicas, one per node.
    const nc = await connect({ servers: cluster.nodes.map((n) => n.url) });
    const jsm = await jetstreamManager(nc);
    const inbox = await jsm.streams.info(new Subjects(WORKSPACE).inboxStream(sink.id.id));
    expect(inbox.config.num_replicas).toBe(3);
    expect(inbox.cluster?.replicas?.length).toBe(2);
    expect(inbox.config.republish?.dest).toBe(new Subjects(WORKSPACE).live(sink.id.id));
    await nc.close();

    const acked = new Set<string>();
    /** Resends the hub refused as replays of an attempt it had failed (not acks). */
    const replayed = new Set<string>();
    // Several sends in flight per producer: acks are outstanding when the node dies.
    const produce = async (p: (typeof producers)[number]) => {
      let next = 0;
      const worker = async () => {
        while (next < PER_PRODUCER) await sendOne(p, next++);
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    };
    const sendOne = async (p: (typeof producers)[number], i: number) => {
      const wire = signedStream(p.id, sink.id.id, i);
      if ((await sendUntilAnswered(p.client, wire)) === "replayed") {
        replayed.add(String(wire["id"]));
        return;
      }
      acked.add(String(wire["id"]));
    };
    const streaming = Promise.all(producers.map(produce));
    await until(() => acked.size >= (2 * PER_PRODUCER) / 3, "a third acknowledged", 60_000);
    // Kill the node hub 0 (the first producer's hub) is connected to.
    const holders = new Set((await cluster.connections(hubs[0]!)).map((c) => c.node));
    expect(holders.size).toBe(1);
    const victim = cluster.nodes[[...holders][0]!]!;
    const ackedAtKill = acked.size;
    await stopProcess(victim.child, "SIGKILL");
    expect(victim.child.signalCode).toBe("SIGKILL");
    await streaming;
    expect(ackedAtKill).toBeLessThan(2 * PER_PRODUCER);
    expect(acked.size + replayed.size).toBe(2 * PER_PRODUCER);

    // A marker after the stream: once it is in, so is everything stored before it.
    const marker = signObject(
      createMessage({
        type: "ocp.custom.marker",
        from: producers[0]!.id.id,
        to: sink.id.id,
        payload: {},
      }) as Record<string, unknown>,
      producers[0]!.id.secretKey,
      nativeEd25519,
    );
    expect(await sendUntilAnswered(producers[0]!.client, marker)).toBe("acked");
    const streamed = () =>
      received.filter((m) => m.message.type === "ocp.knowledge.stream").map((m) => m.message.id);
    await until(
      () => received.some((m) => m.message.id === marker["id"]),
      "the marker after the stream",
      60_000,
    );
    await until(() => [...acked].every((id) => streamed().includes(id)), "every acked message");
    const ids = streamed();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of acked) expect(ids).toContain(id);
    expect(ids.every((id) => acked.has(id) || replayed.has(id))).toBe(true);
    const seqs = received.map((m) => m.seq ?? 0);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    process.stderr.write(
      `nats node failure: ${acked.size} acknowledged, ${ackedAtKill} before the kill, ${resends} resends, ${replayed.size} refused as replays\n`,
    );
  });
});
