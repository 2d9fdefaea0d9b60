import { describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { resolveLimits } from "../src/limits.js";
import { Outbound } from "../src/outbound.js";

/**
 * A socket whose writes never complete on their own: `complete()` finishes
 * the oldest one, as the kernel would when the peer reads. It models exactly
 * what `Outbound` relies on: `bufferedAmount` and the write callbacks.
 */
class SlowSocket {
  bufferedAmount = 0;
  readonly writes: { bytes: number; callback: ((error?: Error | null) => void) | undefined }[] = [];
  delivered: string[] = [];

  send(data: string | Buffer, _options: unknown, callback?: (error?: Error | null) => void): void {
    const bytes = Buffer.byteLength(data);
    this.bufferedAmount += bytes;
    this.writes.push({ bytes, callback });
    this.delivered.push(String(data));
  }

  complete(): boolean {
    const write = this.writes.shift();
    if (write === undefined) return false;
    this.bufferedAmount -= write.bytes;
    write.callback?.(null);
    return true;
  }
}

const limits = resolveLimits({
  maxPayloadBytes: 100,
  highWaterBytes: 100,
  lowWaterBytes: 40,
  maxOutboundBufferBytes: 300,
});

function make() {
  const socket = new SlowSocket();
  const events: string[] = [];
  const out = new Outbound(socket as unknown as WebSocket, limits, {
    backpressure: () => events.push("backpressure"),
    drain: () => events.push("drain"),
    overflow: (error) => events.push(`overflow:${error.code}`),
    pumped: () => {},
  });
  return { socket, events, out };
}

const message = (n: number) => `${String(n).padStart(3, "0")}${"x".repeat(27)}`; // 30 bytes

describe("Outbound", () => {
  it("W-B3: hands messages to the socket below high water, then queues them", () => {
    const { socket, out } = make();
    const statuses = Array.from({ length: 6 }, (_, i) => out.enqueue(message(i), false));
    expect(statuses).toEqual(["sent", "sent", "sent", "sent", "queued", "queued"]);
    expect(socket.delivered).toHaveLength(4);
    expect(out.queuedBytes).toBe(60);
  });

  it("W-B3: reports backpressure above high water and drain at low water, once each", () => {
    const { socket, events, out } = make();
    for (let i = 0; i < 8; i++) out.enqueue(message(i), false);
    expect(events).toEqual(["backpressure"]);
    while (socket.complete()) {}
    expect(events).toEqual(["backpressure", "drain"]);
    expect(out.backpressured).toBe(false);
  });

  it("W-B3: every queued message reaches the socket in order as writes complete (a callback always follows)", () => {
    const { socket, out } = make();
    for (let i = 0; i < 9; i++) out.enqueue(message(i), false);
    let steps = 0;
    while (socket.complete()) steps += 1;
    expect(steps).toBe(9);
    expect(out.empty).toBe(true);
    expect(socket.delivered).toEqual(Array.from({ length: 9 }, (_, i) => message(i)));
  });

  it("W-B3: a message that would pass maxOutboundBufferBytes is not taken, and overflow is reported", () => {
    const { events, out } = make();
    const statuses = Array.from({ length: 11 }, (_, i) => out.enqueue(message(i), false));
    expect(statuses.slice(-1)).toEqual(["overflow"]);
    expect(events).toEqual(["backpressure", "overflow:slow_consumer"]);
    expect(out.peak).toBeLessThanOrEqual(300);
  });

  it("W-B3: refuses a message above maxPayloadBytes", () => {
    const { out } = make();
    expect(() => out.enqueue("y".repeat(101), false)).toThrow(
      expect.objectContaining({ code: "payload_too_large" }),
    );
  });
});
