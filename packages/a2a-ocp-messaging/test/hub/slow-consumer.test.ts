import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { buildAnnouncement, type HubClient, type OCPHub } from "../../src/hub/index.js";
import { createAgentProfile } from "../../src/index.js";
import { nativeEd25519 } from "../../src/node/index.js";
import { client, identity, startHub, tempDir, until } from "./support.js";

const MAX_OUTBOUND = 256 * 1024;
let dir: { dir: string; cleanup: () => void };
let hub: OCPHub;
const clients: HubClient[] = [];

beforeEach(async () => {
  dir = tempDir();
  hub = await startHub(dir.dir, {
    transport: {
      maxOutboundBufferBytes: MAX_OUTBOUND,
      highWaterBytes: 64 * 1024,
      lowWaterBytes: 16 * 1024,
    },
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await hub.close();
  dir.cleanup();
});

/** An agent that registers with a raw socket and then stops reading it. */
async function stalledAgent(url: string): Promise<{ ws: WebSocket; closed: Promise<number> }> {
  const id = identity("stalled");
  const profile = createAgentProfile(id, {}, nativeEd25519);
  const ws = new WebSocket(url, ["a2a-ocp-v1"], { perMessageDeflate: false });
  const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.on("error", reject);
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; payload: { nonce: string } };
      if (frame.type === "ocp.connection.ack") {
        ws.send(buildAnnouncement(id, profile, frame.payload.nonce, undefined, nativeEd25519));
      } else if (frame.type === "ocp.connection.registered") {
        ws.removeAllListeners("message");
        // Stop reading: the kernel buffers fill, then the hub's outbound buffer.
        (ws as unknown as { _socket: { pause(): void } })._socket.pause();
        resolve();
      }
    });
  });
  return { ws, closed };
}

describe("slow consumer", () => {
  it("disconnects an agent that stops reading (4003) while the hub's outbound buffer stays bounded, and others keep receiving", async () => {
    const stalled = await stalledAgent(hub.url);
    const publisher = await client(hub.url, identity("publisher"));
    const reader = await client(hub.url, identity("reader"));
    clients.push(publisher.client, reader.client);
    const blob = "x".repeat(192 * 1024);
    let sent = 0;
    let code: number | undefined;
    void stalled.closed.then((c) => {
      code = c;
    });
    // Bounded: 48 MiB of broadcasts at most, far beyond any socket buffer.
    while (code === undefined && hub.stats().slowConsumerCloses === 0 && sent < 256) {
      await Promise.all(
        Array.from({ length: 4 }, () =>
          publisher.client.send({ type: "ocp.custom.blob", to: "broadcast", payload: { blob } }),
        ),
      );
      sent += 4;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => hub.stats().slowConsumerCloses >= 1, "the slow consumer closed");
    expect(await stalled.closed).toBe(4003);
    expect(hub.stats().peakOutboundBytes).toBeLessThanOrEqual(MAX_OUTBOUND);
    await until(() => reader.received.length === sent, "the reader got every broadcast", 60_000);
    stalled.ws.terminate();
  }, 120_000);
});
