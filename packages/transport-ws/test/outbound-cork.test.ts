import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { resolveLimits } from "../src/limits.js";
import { Outbound } from "../src/outbound.js";

/** A real `ws` pair over loopback TCP; the server side's TCP socket counts its writes. */
async function pair() {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as { port: number };
  const accepted = new Promise<WebSocket>((resolve) => server.once("connection", resolve));
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  const received: string[] = [];
  client.on("message", (data) => received.push(String(data)));
  await new Promise<void>((resolve) => client.once("open", () => resolve()));
  const ws = await accepted;
  const tcp = (ws as unknown as { _socket: Socket })._socket;
  const writes = { calls: 0 };
  for (const method of ["_write", "_writev"] as const) {
    const original = (tcp as unknown as Record<string, (...args: unknown[]) => void>)[method]!.bind(
      tcp,
    );
    (tcp as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      writes.calls += 1;
      original(...args);
    };
  }
  const close = async () => {
    client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { ws, tcp, writes, received, close };
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A connected pair (closed after the test) and an `Outbound` on its server side. */
async function corkedPair() {
  const p = await pair();
  cleanup = p.close;
  const out = new Outbound(p.ws, resolveLimits({}), {
    backpressure: () => undefined,
    drain: () => undefined,
    overflow: () => undefined,
    pumped: () => undefined,
  });
  return { p, out };
}

describe("Outbound coalesces the frames of one tick", () => {
  it("writes 200 frames sent in one tick with a few socket writes, in order, and uncorks after the tick", async () => {
    const { p, out } = await corkedPair();
    const frames = Array.from({ length: 200 }, (_, i) => `frame-${i}-${"x".repeat(100)}`);
    for (const frame of frames) expect(out.enqueue(frame, false)).toBe("sent");
    // Held until the tick's work is done, and counted as buffered meanwhile.
    expect(p.tcp.writableCorked).toBe(1);
    expect(p.writes.calls).toBe(0);
    expect(p.ws.bufferedAmount).toBeGreaterThan(200 * 100);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(p.tcp.writableCorked).toBe(0);
    expect(p.writes.calls).toBeGreaterThan(0);
    expect(p.writes.calls).toBeLessThanOrEqual(2);
    const deadline = Date.now() + 4000;
    while (p.received.length < frames.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(p.received).toEqual(frames);
    // A frame of a later tick is written on its own, uncorked afterwards.
    out.enqueue("later", false);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(p.tcp.writableCorked).toBe(0);
  });

  it("a socket closed before the end of the tick loses nothing it had not lost anyway", async () => {
    const { p, out } = await corkedPair();
    out.enqueue("before close", false);
    p.ws.terminate();
    // The uncork runs on a destroyed socket: no throw, no unhandled error.
    await new Promise((resolve) => process.nextTick(resolve));
    expect(p.tcp.destroyed).toBe(true);
  });
});
