// Reusable broadcast throughput harness: a server sends the same bytes to
// every subscriber, in rounds (the next round starts once every subscriber
// has every message of the last one, so neither side buffers without bound),
// and the harness reports deliveries per second. Subscribers live in a worker
// thread. A variant is { name, lifecycle, start() → { url, broadcast(bytes), close() } };
// later benches (the hub's) add their own variant beside rawWsVariant and
// transportVariant and compare in the same run.
import { Worker } from "node:worker_threads";
import { WebSocketServer } from "ws";
import { createWsServer } from "../dist/index.js";

/** A plain `ws` server broadcasting with `ws.send` to every client. */
export function rawWsVariant() {
  return {
    name: "raw ws",
    lifecycle: false,
    async start() {
      const wss = new WebSocketServer({
        host: "127.0.0.1",
        port: 0,
        perMessageDeflate: false,
        handleProtocols: (protocols) => (protocols.has("a2a-ocp-v1") ? "a2a-ocp-v1" : false),
      });
      await new Promise((resolve) => wss.once("listening", resolve));
      return {
        url: `ws://127.0.0.1:${wss.address().port}/`,
        broadcast(bytes) {
          for (const ws of wss.clients) ws.send(bytes);
        },
        async close() {
          for (const ws of wss.clients) ws.terminate();
          await new Promise((resolve) => wss.close(resolve));
        },
      };
    },
  };
}

/** This package's server (lifecycle, accounting, backpressure) broadcasting with `Connection.send`. */
export function transportVariant(limits = {}) {
  return {
    name: "@ocp/transport-ws",
    lifecycle: true,
    async start() {
      const server = await createWsServer({
        ...limits,
        authenticate: (announcement) => ({ agentId: announcement.payload.agent }),
      });
      return {
        url: server.url,
        broadcast(bytes) {
          for (const connection of server.connections()) connection.send(bytes);
        },
        close: () => server.close(),
      };
    },
  };
}

/** A realistic a2a+ocp message of about `size` bytes, as one Buffer (the same bytes for every subscriber). */
export function sampleMessage(size = 1024) {
  const base = {
    protocol: "a2a+ocp",
    version: "1.0.0",
    id: "6f1c2a5e-8f0b-4d4e-9a57-3b1f0a2c9d11",
    from: "a2a://alice.acme.example",
    to: "broadcast",
    timestamp: "2026-11-30T12:00:00.000Z",
    type: "ocp.knowledge.stream",
    payload: { content: "" },
    signature: "A".repeat(88),
  };
  const overhead = Buffer.byteLength(JSON.stringify(base));
  base.payload.content = "k".repeat(Math.max(0, size - overhead));
  return Buffer.from(JSON.stringify(base));
}

function request(worker, message, expect) {
  return new Promise((resolve, reject) => {
    const onMessage = (reply) => {
      if (reply.type !== expect) return;
      worker.off("message", onMessage);
      worker.off("error", reject);
      resolve(reply);
    };
    worker.on("message", onMessage);
    worker.once("error", reject);
    if (message !== undefined) worker.postMessage(message);
  });
}

/**
 * Broadcasts `messages` copies of `bytes` to `subscribers` subscribers of a
 * fresh server of `variant`, `round` messages at a time. Returns deliveries
 * per second, bytes per second (payload bytes delivered) and the
 * broadcaster's own time per delivery (inside `broadcast`). At most
 * `round × subscribers` messages are in flight at once.
 */
export async function measureBroadcast(
  variant,
  { subscribers, messages, round = 50, bytes = sampleMessage() },
) {
  const server = await variant.start();
  const worker = new Worker(new URL("./subscribers-worker.mjs", import.meta.url), {
    workerData: { url: server.url, count: subscribers, lifecycle: variant.lifecycle },
  });
  try {
    await request(worker, undefined, "ready");
    // Warm-up round, not measured.
    let expected = 0;
    for (let i = 0; i < round; i++) server.broadcast(bytes);
    expected += round * subscribers;
    await request(worker, { type: "wait", total: expected }, "reached");
    const start = performance.now();
    let sending = 0;
    for (let sent = 0; sent < messages; sent += round) {
      const n = Math.min(round, messages - sent);
      const t = performance.now();
      for (let i = 0; i < n; i++) server.broadcast(bytes);
      sending += performance.now() - t;
      expected += n * subscribers;
      await request(worker, { type: "wait", total: expected }, "reached");
    }
    const seconds = (performance.now() - start) / 1000;
    const deliveries = messages * subscribers;
    return {
      variant: variant.name,
      subscribers,
      deliveriesPerSecond: deliveries / seconds,
      bytesPerSecond: (deliveries * bytes.length) / seconds,
      /** Broadcaster time spent inside `broadcast` calls, per delivery (the sender's own cost). */
      sendMicrosPerDelivery: (sending * 1000) / deliveries,
    };
  } finally {
    await request(worker, { type: "close" }, "closed");
    await worker.terminate();
    await server.close();
  }
}
