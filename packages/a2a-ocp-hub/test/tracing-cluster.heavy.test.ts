/**
 * A message's trace across two hubs clustered on a real `nats-server`
 * (JetStream): agent → hub A (accept, verify, commit = the JetStream
 * publish) → NATS → hub B (receive, deliver) → agent, one trace id with
 * each span the child of the hop before, collected with the SDK's in-memory
 * exporter; hub B's metrics count the cluster hop once per message.
 */
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { client, identity, tempDir, until } from "@ocp/testkit";
import { type NatsServer, startNatsServer } from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCPHub, startHubMetrics } from "../src/index.js";
import { connectNats } from "../src/nats/connect.js";
import { parsePrometheusText, sampleValue } from "./prometheus-text.js";
import { isChildOf, memoryTracing, only } from "./tracing-support.js";

const dir = tempDir("ocp-nats-trace-");
const otel = memoryTracing();
let nats: NatsServer | undefined;
const hubs: OCPHub[] = [];
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  nats = await startNatsServer(dir.dir);
  for (let i = 0; i < 2; i++) {
    const cluster = await connectNats({ servers: nats.url, workspace: "tracing" });
    hubs.push(
      await OCPHub.start({
        store: cluster.store,
        bus: cluster.bus,
        tracing: otel.tracing,
        onError: () => {},
      }),
    );
  }
}, 120_000);

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  for (const hub of hubs) await hub.close().catch(() => undefined);
  await nats?.stop();
  await otel.close();
  dir.cleanup();
}, 60_000);

describe("tracing across clustered hubs (NATS JetStream)", { timeout: 60_000 }, () => {
  it("links agent send → hub A accept, verify, commit → hub B receive, deliver → agent receive in one trace", async () => {
    const alice = identity("alice");
    const bob = identity("bob");
    const a = await client(hubs[0]!.url, alice, { tracing: otel.tracing });
    const b = await client(hubs[1]!.url, bob, { tracing: otel.tracing });
    closers.push(
      () => a.client.close(),
      () => b.client.close(),
    );
    const metrics = await startHubMetrics(hubs[1]!);
    closers.push(() => metrics.close());
    const sent = [];
    for (let n = 0; n < 3; n++) {
      const note = createMessage({
        type: "ocp.custom.note",
        from: alice.id,
        to: bob.id,
        payload: { n },
      });
      sent.push(signObject(note, alice.secretKey));
      await a.client.send(sent[n]!);
    }
    await until(() => b.received.length === 3, "bob's deliveries on the other hub");
    await until(
      () => otel.spans().filter((s) => s.name === "a2a-ocp.receive").length === 3,
      "bob's receive spans",
    );
    const spans = otel.spans();
    const id = String(sent[0]!["id"]);
    const send = only(spans, "a2a-ocp.send", { "messaging.message.id": id });
    const traceId = send.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    const accept = only(inTrace, "ocp.hub.accept");
    const verify = only(inTrace, "ocp.hub.verify");
    const commit = only(inTrace, "ocp.hub.commit");
    const receive = only(inTrace, "ocp.hub.receive");
    const deliver = only(inTrace, "ocp.hub.deliver");
    const received = only(inTrace, "a2a-ocp.receive");
    expect(send.parentSpanContext).toBeUndefined();
    expect(accept.attributes["messaging.message.id"]).toBe(id);
    expect(isChildOf(accept, send)).toBe(true);
    expect(isChildOf(verify, accept)).toBe(true);
    expect(isChildOf(commit, accept)).toBe(true);
    expect(isChildOf(receive, commit)).toBe(true);
    expect(isChildOf(deliver, receive)).toBe(true);
    expect(isChildOf(received, deliver)).toBe(true);
    expect(inTrace).toHaveLength(7);
    // Three messages, three traces, each with its own hub B receive.
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(3);

    const families = parsePrometheusText(
      await fetch(metrics.url).then((response) => response.text()),
    );
    const count = (hop: string) =>
      sampleValue(families, "ocp_hub_hop_duration_seconds_count", { hop });
    expect(count("cluster")).toBe(3);
    expect(count("deliver")).toBe(3);
  });
});
