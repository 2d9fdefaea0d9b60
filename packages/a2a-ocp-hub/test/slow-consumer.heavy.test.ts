import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { HubClient } from "@ocp/a2a-ocp-client";
import { createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { buildAnnouncement } from "@ocp/a2a-ocp-messaging/internal";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { OCPHub } from "../src/index.js";
import { client, identity, startHub, tempDir, until } from "./support.js";

const MAX_OUTBOUND = 256 * 1024;
let dir: { dir: string; cleanup: () => void };
let hub: OCPHub;
const clients: HubClient[] = [];

beforeEach(async () => {
  dir = tempDir();
  // Transient forwarding without hub-side verification keeps this test's CPU to the bytes moved.
  hub = await startHub(dir.dir, {
    verifyForwarded: false,
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

/** An agent on a raw socket that stops reading once registered (`stall`), or counts frames. */
async function rawAgent(
  url: string,
  stall: boolean,
): Promise<{ ws: WebSocket; frames: () => number }> {
  let frames = 0;
  const id = identity(stall ? "stalled" : "reader");
  const profile = createAgentProfile(id, {}, nativeEd25519);
  const ws = new WebSocket(url, ["a2a-ocp-v1"], { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.on("error", reject);
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; payload: { nonce: string } };
      if (frame.type === "ocp.connection.ack") {
        ws.send(buildAnnouncement(id, profile, frame.payload.nonce, undefined, nativeEd25519));
      } else if (frame.type === "ocp.connection.registered") {
        ws.removeAllListeners("message");
        if (stall) {
          // Stop reading: the kernel buffers fill, then the hub's outbound buffer.
          (ws as unknown as { _socket: { pause(): void } })._socket.pause();
        } else {
          ws.on("message", () => {
            frames += 1;
          });
        }
        resolve();
      }
    });
  });
  return { ws, frames: () => frames };
}

describe("slow consumer", () => {
  it("disconnects an agent that stops reading (4003) while the hub's outbound buffer stays bounded, and others keep receiving", async () => {
    const stalled = await rawAgent(hub.url, true);
    const reader = await rawAgent(hub.url, false);
    const publisher = await client(hub.url, identity("publisher"));
    clients.push(publisher.client);
    const blob = "x".repeat(192 * 1024);
    let sent = 0;
    // Bounded: 48 MiB of broadcasts at most, far beyond any socket buffer.
    while (hub.stats().slowConsumerCloses === 0 && sent < 256) {
      await Promise.all(
        Array.from({ length: 4 }, () =>
          publisher.client.send({ type: "ocp.custom.blob", to: "broadcast", payload: { blob } }),
        ),
      );
      sent += 4;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => hub.stats().slowConsumerCloses >= 1, "the slow consumer closed");
    // 4003 closes are what slowConsumerCloses counts; the stalled side reads nothing, so it is checked at the hub.
    await until(
      () => !hub.connectedAgents().some((agent) => agent.includes("stalled")),
      "the stalled agent gone",
    );
    expect(hub.stats().peakOutboundBytes).toBeLessThanOrEqual(MAX_OUTBOUND);
    await until(() => reader.frames() === sent, "the reader got every broadcast", 60_000);
    stalled.ws.terminate();
    reader.ws.close();
  }, 240_000);

  it("over a longer run (6 slow consumers, one after another), the hub's memory levels off and returns to its baseline", async () => {
    // A real collection before each reading, so live memory is what is measured.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const live = async () => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((resolve) => setImmediate(resolve));
      }
      // external includes the ArrayBuffers (socket buffers, frames) outside the JS heap.
      const { heapUsed, external } = process.memoryUsage();
      return heapUsed + external;
    };
    const MB = 1024 * 1024;
    const publisher = await client(hub.url, identity("publisher"));
    clients.push(publisher.client);
    const baseline = await live();
    const blob = "x".repeat(192 * 1024);
    const after: number[] = [];
    let offered = 0;
    for (let cycle = 1; cycle <= 6; cycle++) {
      const stalled = await rawAgent(hub.url, true);
      const closesBefore = hub.stats().slowConsumerCloses;
      let sent = 0;
      while (hub.stats().slowConsumerCloses === closesBefore && sent < 256) {
        await Promise.all(
          Array.from({ length: 4 }, () =>
            publisher.client.send({ type: "ocp.custom.blob", to: "broadcast", payload: { blob } }),
          ),
        );
        sent += 4;
        await new Promise((resolve) => setImmediate(resolve));
      }
      offered += sent * blob.length;
      await until(
        () => hub.stats().slowConsumerCloses > closesBefore,
        `slow consumer ${cycle} closed`,
      );
      stalled.ws.terminate();
      await until(
        () => !hub.connectedAgents().some((agent) => agent.includes("stalled")),
        `stalled agent ${cycle} gone`,
      );
      after.push(await live());
    }
    const growth = after.map((bytes) => Math.round((bytes - baseline) / MB));
    // Reported for the record: MB above baseline after each cycle, and what was offered.
    console.log(
      `slow consumers: ${Math.round(offered / MB)} MB offered; live memory above baseline after each cycle (MB): ${growth.join(", ")}`,
    );
    // Levels off: the last cycles add nothing beyond noise to the first.
    expect(after.at(-1)! - after[0]!).toBeLessThan(24 * MB);
    // Returns: once the consumers are gone, the hub holds no more than a small constant.
    expect(after.at(-1)! - baseline).toBeLessThan(32 * MB);
  }, 600_000);
});
