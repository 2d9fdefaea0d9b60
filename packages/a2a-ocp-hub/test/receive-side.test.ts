/**
 * Issue 38, receive side: nothing a client acknowledges is lost. Against a
 * real hub on a real socket: a replay-filter false positive (the client's
 * window built small, so its Bloom filter overflows and "may hold" every
 * id) on a durable delivery with a new sequence number still reaches the
 * application, flagged; a real replay (the same delivery again, or the same
 * id under a new sequence number, sent by a relay standing in for a faulty
 * hub) is dropped and visible as a `dropped` event, emitted before its
 * sequence number is confirmed; with nobody listening, a refused delivery is
 * a process warning.
 */
import type { DroppedMessage, HubClient } from "@ocp/a2a-ocp-client";
import { DELIVER_PREFIX, parseDeliver } from "@ocp/a2a-ocp-messaging/internal";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import type { OCPHub } from "../src/index.js";
import { client, identity, startHub, tempDir, until } from "./support.js";

const cleanups: Array<() => unknown> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hub(): Promise<OCPHub> {
  const d = tempDir("ocp-receive-");
  cleanups.push(d.cleanup);
  const h = await startHub(d.dir);
  cleanups.push(() => h.close());
  return h;
}

async function join(url: string, name: string, options: Parameters<typeof client>[2] = {}) {
  const id = identity(name);
  const joined = await client(url, id, options);
  cleanups.push(() => joined.client.close());
  return { id, ...joined };
}

/**
 * A relay between one client and the hub that passes every frame on and
 * hands each delivery frame the hub sends to `deliver`, which may send more
 * (a faulty or hostile hub, as the client sees it).
 */
async function relay(
  target: string,
  deliver: (frame: string, send: (frame: string) => void) => void,
): Promise<string> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const c of server.clients) c.terminate();
        server.close(() => resolve());
      }),
  );
  server.on("connection", (downstream) => {
    const upstream = new WebSocket(target, [downstream.protocol], { perMessageDeflate: false });
    const early: string[] = [];
    upstream.on("open", () => {
      for (const frame of early.splice(0)) upstream.send(frame);
    });
    downstream.on("message", (data) => {
      const frame = data.toString();
      if (upstream.readyState === WebSocket.OPEN) upstream.send(frame);
      else early.push(frame);
    });
    const send = (frame: string) => downstream.send(frame);
    upstream.on("message", (data) => {
      const frame = data.toString();
      if (parseDeliver(frame) === undefined) send(frame);
      else deliver(frame, send);
    });
    downstream.on("close", () => upstream.close());
    upstream.on("close", () => downstream.close());
  });
  const { port } = server.address() as { port: number };
  return `ws://127.0.0.1:${port}`;
}

/** The same delivery frame under another sequence number. */
function withSeq(frame: string, seq: number): string {
  const { raw } = parseDeliver(frame)!;
  return `${DELIVER_PREFIX}${seq},"message":${raw}}`;
}

async function sendNotes(from: HubClient, to: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const receipt = await from.send({ type: "ocp.custom.note", to, payload: { i } });
    expect(receipt.durable).toBe(true);
    ids.push(receipt.id);
  }
  return ids;
}

describe("HubClient receive side: nothing acknowledged is lost (issue 38)", () => {
  it("a replay-filter false positive on a new durable seq still reaches the application, flagged possibleReplay", async () => {
    const h = await hub();
    const alice = await join(h.url, "alice");
    // One exact id, one 64-byte Bloom filter (51 ids): past that, it "may hold" every id.
    const bob = await join(h.url, "bob", {
      dedup: { maxEntries: 1, filterBytes: 64, bytesPerFilter: 64 },
    });
    const dropped: DroppedMessage[] = [];
    bob.client.on("dropped", (d) => dropped.push(d));
    const ids = await sendNotes(alice.client, bob.id.id, 80);
    await until(() => bob.received.length + dropped.length >= 80, "80 deliveries handled");
    expect(dropped).toEqual([]);
    expect(bob.received.map((m) => m.message.id)).toEqual(ids);
    const flagged = bob.received.filter((m) => m.possibleReplay === true);
    expect(flagged.length).toBeGreaterThanOrEqual(80 - 53); // Every one after the overflow.
    expect(bob.received[0]!.possibleReplay).toBeUndefined();
    expect(bob.client.lastSeq).toBe(80);
  }, 30_000);

  it("a real replay is dropped and visible: the same delivery again, and the same id under a new seq", async () => {
    const h = await hub();
    const alice = await join(h.url, "alice");
    let copies = 0;
    const url = await relay(h.url, (frame, send) => {
      send(frame);
      const { seq } = parseDeliver(frame)!;
      if (copies === 0) send(frame); // The same seq, the same bytes.
      if (copies === 1) send(withSeq(frame, seq + 1_000)); // A new seq for an id already delivered.
      copies += 1;
    });
    const bobId = identity("bob");
    const bob = await client(url, bobId);
    cleanups.push(() => bob.client.close());
    const dropped: Array<DroppedMessage & { lastSeqThen: number }> = [];
    bob.client.on("dropped", (d) => dropped.push({ ...d, lastSeqThen: bob.client.lastSeq }));
    const [first] = await sendNotes(alice.client, bobId.id, 1);
    await until(() => dropped.length === 1, "the repeated delivery reported");
    const [second] = await sendNotes(alice.client, bobId.id, 1);
    await until(() => dropped.length === 2, "the re-numbered copy reported");
    expect(bob.received.map((m) => m.message.id)).toEqual([first, second]);
    expect(dropped.map((d) => [d.code, d.seq, d.id, d.durable])).toEqual([
      ["replay_detected", 1, first, true],
      ["replay_detected", 1_002, second, true],
    ]);
    // Reported before its seq counted as handled: 1002 was not the resume point yet.
    expect(dropped[1]!.lastSeqThen).toBe(2);
    expect(bob.client.lastSeq).toBe(1_002);
  }, 30_000);

  it("a refused delivery is reported before its seq is confirmed; with nobody listening it is a process warning", async () => {
    const h = await hub();
    const alice = await join(h.url, "alice");
    // The relay breaks the signature of what it delivers.
    const url = await relay(h.url, (frame, send) =>
      send(frame.replace('"payload":{"i":0}', '"payload":{"i":1}')),
    );
    const bobId = identity("bob");
    const bob = await client(url, bobId);
    cleanups.push(() => bob.client.close());
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    cleanups.push(() => process.off("warning", onWarning));
    const [id] = await sendNotes(alice.client, bobId.id, 1);
    await until(() => warnings.length === 1, "the warning");
    expect(warnings[0]).toMatchObject({ code: "OCP_DELIVERY_DROPPED" });
    expect(warnings[0]!.message).toContain(
      `dropped durable delivery 1 (message "${id}"): signature_invalid`,
    );
    expect(bob.received).toEqual([]);
    // A listener gets the event instead, with the text as received.
    const dropped: DroppedMessage[] = [];
    bob.client.on("dropped", (d) => dropped.push(d));
    await sendNotes(alice.client, bobId.id, 1);
    await until(() => dropped.length === 1, "the dropped event");
    expect(dropped[0]).toMatchObject({ code: "signature_invalid", seq: 2, durable: true });
    expect(dropped[0]!.raw).toContain('"payload":{"i":1}');
    expect(warnings).toHaveLength(1);
  }, 30_000);
});
