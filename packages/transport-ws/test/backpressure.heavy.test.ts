/**
 * Load tests of back-pressure and slow consumers: each offers tens to
 * over a hundred MiB to a connection, so they run in the heavy tier
 * (`pnpm test:heavy`).
 */
import { describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { CLOSE_CODES, type SendStatus } from "../src/index.js";
import {
  closeOf,
  connectionPairs,
  makeAgent,
  next,
  nextConnection,
  reading,
  registerRaw,
  until,
  within,
} from "./helpers.js";

const alice = makeAgent("alice");
const { pair, keep } = connectionPairs(alice);

function bufferMemory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

describe("backpressure and slow consumers", { timeout: 60_000 }, () => {
  it("W-B1: a client that stops reading is back-pressured, then closed with 4003; outbound bytes never exceed the limit", async () => {
    const limit = 1024 * 1024;
    const { server, ws, connection } = await pair({
      maxOutboundBufferBytes: limit,
      highWaterBytes: 256 * 1024,
      lowWaterBytes: 64 * 1024,
      maxPayloadBytes: 64 * 1024,
      closeTimeoutMs: 10_000,
    });
    reading(ws, false);
    let backpressureEvents = 0;
    connection.on("backpressure", () => {
      backpressureEvents += 1;
    });
    const statuses: SendStatus[] = [];
    let maxOutbound = 0;
    let offered = 0;
    const before = bufferMemory();
    let maxMemory = before;
    const pad = "x".repeat(16_000);
    for (let seq = 0; seq < 8192; seq++) {
      const message = JSON.stringify({ seq, pad });
      offered += message.length;
      const status = connection.send(message);
      if (statuses.at(-1) !== status) statuses.push(status);
      maxOutbound = Math.max(maxOutbound, connection.stats().outboundBytes);
      if (seq % 256 === 0) maxMemory = Math.max(maxMemory, bufferMemory());
    }
    expect(offered).toBeGreaterThan(120 * 1024 * 1024);
    expect(statuses).toEqual(["sent", "queued", "overflow", "closed"]);
    expect(backpressureEvents).toBe(1);
    expect(maxOutbound).toBeLessThanOrEqual(limit);
    expect(connection.stats().peakOutboundBytes).toBeLessThanOrEqual(limit);
    expect(server.stats().peakOutboundBytes).toBeLessThanOrEqual(limit);
    // A loose bound only: over 120 MiB were offered, far less was ever held.
    expect(maxMemory - before).toBeLessThan(64 * 1024 * 1024);

    const clientSaw = closeOf(ws);
    reading(ws, true);
    expect((await clientSaw).code).toBe(CLOSE_CODES.SLOW_CONSUMER);
    const info = await within(connection.closed, 15_000, "server-side close");
    expect(info).toMatchObject({
      code: 4003,
      initiator: "local",
      error: { code: "slow_consumer" },
    });
    expect(server.stats().slowConsumerCloses).toBe(1);
  });

  it("W-B2: a producer that waits for drain delivers every message, in order, to a reader that stalls and resumes", async () => {
    const { ws, connection } = await pair({
      maxOutboundBufferBytes: 1024 * 1024,
      highWaterBytes: 128 * 1024,
      lowWaterBytes: 32 * 1024,
    });
    const total = 3000;
    const received: number[] = [];
    const done = new Promise<void>((resolve) => {
      ws.on("message", (data) => {
        received.push((JSON.parse(String(data)) as { seq: number }).seq);
        if (received.length === total) resolve();
      });
    });
    reading(ws, false);
    let drains = 0;
    connection.on("drain", () => {
      drains += 1;
    });
    const pad = "y".repeat(8_000);
    let resumed = false;
    for (let seq = 0; seq < total; seq++) {
      const status = connection.send(JSON.stringify({ seq, pad }));
      expect(status === "sent" || status === "queued").toBe(true);
      if (connection.backpressured) {
        const drained = next(connection, "drain");
        if (!resumed) {
          resumed = true;
          reading(ws, true);
        }
        await drained;
      }
    }
    await within(done, 10_000, "all messages");
    expect(received).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(drains).toBeGreaterThan(0);
    expect(connection.stats().peakOutboundBytes).toBeLessThanOrEqual(1024 * 1024);
  });

  it("W-B4: a broadcast keeps serving fast subscribers while the one that stalls is closed with 4003", async () => {
    const limit = 512 * 1024;
    const options = {
      maxOutboundBufferBytes: limit,
      highWaterBytes: 128 * 1024,
      lowWaterBytes: 32 * 1024,
    };
    const { server, ws: slow, connection: slowConnection } = await pair(options);
    const fast: { ws: WebSocket; count: number }[] = [];
    for (let i = 0; i < 2; i++) {
      const connected = nextConnection(server);
      const { ws } = await registerRaw(server.url, alice);
      keep(ws);
      await connected;
      const entry = { ws, count: 0 };
      ws.on("message", () => {
        entry.count += 1;
      });
      fast.push(entry);
    }
    reading(slow, false);
    const total = 2000;
    const pad = "z".repeat(8_000);
    for (let seq = 0; seq < total; seq++) {
      const bytes = Buffer.from(JSON.stringify({ seq, pad }));
      for (const connection of server.connections()) connection.send(bytes);
      // The hub waits for subscribers that read, never for one that stalls.
      for (const connection of server.connections()) {
        if (connection.backpressured && connection !== slowConnection)
          await next(connection, "drain");
      }
      if (seq % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await until(
      () => fast.every((entry) => entry.count === total),
      10_000,
      "fast subscribers to get all",
    );
    const info = await within(slowConnection.closed, 15_000, "slow subscriber close");
    expect(info).toMatchObject({ code: 4003, error: { code: "slow_consumer" } });
    expect(server.stats().peakOutboundBytes).toBeLessThanOrEqual(limit);
    expect(server.stats().registered).toBe(2);
  });
});
