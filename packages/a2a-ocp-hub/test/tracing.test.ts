/**
 * OpenTelemetry traces of a message's path on one hub, collected with the
 * SDK's in-memory exporter: agent send → hub accept (verify, commit) →
 * deliver → agent receive, one trace; the trace context rides beside the
 * signed message (`ocp.hub.send`, a traced `ocp.hub.deliver`) and only when
 * both sides asked for it; a bogus or oversized `traceparent` never breaks
 * a message or a hub.
 */
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { encodeTracedSend, TRACEPARENT_MAX_CHARS } from "@ocp/a2a-ocp-messaging/internal";
import { rawAgent } from "@ocp/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import type { OCPHub } from "../src/index.js";
import { node as accessNode, client, identity, startHub, tempDir, until } from "./support.js";
import { isChildOf, memoryTracing, only } from "./tracing-support.js";

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

async function hubWith(options: Parameters<typeof startHub>[1] = {}): Promise<OCPHub> {
  const dir = tempDir();
  const hub = await startHub(dir.dir, options);
  cleanups.push(dir.cleanup, () => hub.close());
  return hub;
}

async function agent(hub: OCPHub, name: string, options: Parameters<typeof client>[2] = {}) {
  const id = identity(name);
  const joined = await client(hub.url, id, options);
  cleanups.push(() => joined.client.close());
  return { id, ...joined };
}

const note = (from: { id: string; secretKey: Uint8Array }, to: string, n: number) =>
  signObject(
    createMessage({ type: "ocp.custom.note", from: from.id, to, payload: { n } }),
    from.secretKey,
  );

describe("tracing on one hub", () => {
  it("links agent send, hub accept, verify, commit, deliver and agent receive in one trace", async () => {
    const otel = memoryTracing();
    cleanups.push(otel.close);
    const hub = await hubWith({ tracing: otel.tracing });
    const a = await agent(hub, "alice", { tracing: otel.tracing });
    const b = await agent(hub, "bob", { tracing: otel.tracing });
    const message = note(a.id, b.id.id, 1);
    await a.client.send(message);
    await until(() => b.received.length === 1, "bob's delivery");
    await until(() => otel.spans().some((s) => s.name === "a2a-ocp.receive"), "receive span");
    const spans = otel.spans();
    const id = String(message["id"]);
    const send = only(spans, "a2a-ocp.send", { "messaging.message.id": id });
    const accept = only(spans, "ocp.hub.accept", { "messaging.message.id": id });
    const verify = only(spans, "ocp.hub.verify");
    const commit = only(spans, "ocp.hub.commit");
    const deliver = only(spans, "ocp.hub.deliver");
    const receive = only(spans, "a2a-ocp.receive");
    expect(send.parentSpanContext).toBeUndefined();
    expect(isChildOf(accept, send)).toBe(true);
    expect(isChildOf(verify, accept)).toBe(true);
    expect(isChildOf(commit, accept)).toBe(true);
    expect(isChildOf(deliver, commit)).toBe(true);
    expect(isChildOf(receive, deliver)).toBe(true);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(accept.status.code).toBe(0); // UNSET: acknowledged
  });

  it("a refused message ends its accept span with the refusal code as an error", async () => {
    const otel = memoryTracing();
    cleanups.push(otel.close);
    const hub = await hubWith({ tracing: otel.tracing });
    const a = await agent(hub, "alice", { tracing: otel.tracing });
    const b = await agent(hub, "bob");
    // It passes the checks, then is refused: knowledge written in another agent's name.
    const stranger = signObject(
      createMessage({
        type: "ocp.knowledge.stream",
        from: a.id.id,
        to: b.id.id,
        payload: {
          streamId: "s-1",
          nodes: [accessNode(b.id.id, "n-1")],
          edges: [],
          isIncremental: true,
          sequenceNumber: 1,
        },
      }),
      a.id.secretKey,
    );
    await expect(a.client.send(stranger)).rejects.toMatchObject({ code: "not_author" });
    const accept = only(otel.spans(), "ocp.hub.accept", {
      "messaging.message.id": String(stranger["id"]),
    });
    expect(accept.status).toMatchObject({ code: 2, message: "not_author" });
    expect(accept.attributes["ocp.refusal.code"]).toBe("not_author");
    expect(
      only(otel.spans(), "a2a-ocp.send", { "messaging.message.id": String(stranger["id"]) }).status
        .code,
    ).toBe(2);
  });

  it("accepts an ocp.hub.send frame with a bogus traceparent and ignores the context", async () => {
    const otel = memoryTracing();
    cleanups.push(otel.close);
    const hub = await hubWith({ tracing: otel.tracing });
    const alice = identity("alice");
    const raw = await rawAgent(hub.url, alice);
    cleanups.push(() => raw.close());
    const b = await agent(hub, "bob");
    const message = note(alice, b.id.id, 1);
    const id = String(message["id"]);
    for (const bogus of [
      "00-not-a-trace",
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "",
    ]) {
      const fresh = note(alice, b.id.id, bogus.length);
      raw.send(encodeTracedSend(bogus, JSON.stringify(fresh)));
      await until(() => raw.controls().some((c) => c.payload["id"] === fresh["id"]), "the ack");
      const accept = only(otel.spans(), "ocp.hub.accept", {
        "messaging.message.id": String(fresh["id"]),
      });
      expect(accept.parentSpanContext).toBeUndefined(); // a new trace, not the bogus one
    }
    raw.send(encodeTracedSend("00-x", JSON.stringify(message)));
    await until(() => raw.controls().some((c) => c.payload["id"] === id), "the ack");
    expect(raw.controls().filter((c) => c.type === "ocp.hub.reject")).toEqual([]);
    await until(() => b.received.length === 4, "bob's deliveries");
    expect(b.received.map((m) => m.raw)).toContain(JSON.stringify(message));
  });

  it("refuses an oversized traceparent as hub_frame_invalid naming TRACEPARENT_MAX_CHARS, and keeps serving", async () => {
    const hub = await hubWith();
    const alice = identity("alice");
    const raw = await rawAgent(hub.url, alice);
    cleanups.push(() => raw.close());
    const b = await agent(hub, "bob");
    const message = note(alice, b.id.id, 1);
    raw.send(
      encodeTracedSend(`00-${"a".repeat(TRACEPARENT_MAX_CHARS * 4)}`, JSON.stringify(message)),
    );
    await until(() => raw.controls().some((c) => c.type === "ocp.hub.reject"), "the refusal");
    const [reject] = raw.controls();
    expect(reject?.payload["code"]).toBe("hub_frame_invalid");
    expect(String(reject?.payload["message"])).toContain("TRACEPARENT_MAX_CHARS");
    expect(hub.stats().rejectedByCode["hub_frame_invalid"]).toBe(1);
    raw.send(JSON.stringify(message)); // the same message, bare: it was never read, so not a replay
    await until(() => b.received.length === 1, "bob's delivery");
    expect(raw.ws.readyState).toBe(WebSocket.OPEN);
  });
});

describe("tracing off unless configured", () => {
  async function wire(hubTraced: boolean, agentsTraced: boolean): Promise<string[]> {
    const otel = memoryTracing();
    cleanups.push(otel.close);
    const frames: string[] = [];
    const original = WebSocket.prototype.send;
    vi.spyOn(WebSocket.prototype, "send").mockImplementation(function (
      this: WebSocket,
      data,
      ...rest
    ) {
      frames.push(Buffer.isBuffer(data) ? data.toString("utf8") : String(data));
      return original.call(this, data, ...(rest as [never]));
    });
    const hub = await hubWith(hubTraced ? { tracing: otel.tracing } : {});
    const options = agentsTraced ? { tracing: otel.tracing } : {};
    const a = await agent(hub, "alice", options);
    const b = await agent(hub, "bob", options);
    await a.client.send(note(a.id, b.id.id, 1));
    await until(() => b.received.length === 1, "bob's delivery");
    return frames;
  }

  it("puts a traceparent on the wire when the hub and the agents are configured (the control)", async () => {
    const frames = await wire(true, true);
    expect(frames.filter((f) => f.includes('"traceparent"')).length).toBe(2); // send and deliver
  });

  it.each([
    ["the hub", false, true],
    ["the agents", true, false],
    ["anything", false, false],
  ])("sends no traceparent when %s is not configured", async (_what, hubTraced, agentsTraced) => {
    const frames = await wire(hubTraced, agentsTraced);
    expect(frames.length).toBeGreaterThan(4);
    expect(frames.filter((f) => f.includes("traceparent") || f.includes("ocp.hub.send"))).toEqual(
      [],
    );
  });
});
