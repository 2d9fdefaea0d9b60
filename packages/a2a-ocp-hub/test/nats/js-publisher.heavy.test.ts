/**
 * The pipelined JetStream publisher against a real `nats-server`: acks in
 * publish order, duplicates, and every way a publish fails (no stream, no
 * answer, a closed publisher or connection) as a typed `store_failed`.
 */
import { jetstreamManager } from "@nats-io/jetstream";
import { connect, headers, type NatsConnection } from "@nats-io/transport-node";
import { tempDir } from "@ocp/testkit";
import { type NatsServer, startNatsServer } from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsPublisher } from "../../src/nats/js-publisher.js";

const dir = tempDir("ocp-js-publisher-");
let server: NatsServer;
let nc: NatsConnection;

beforeAll(async () => {
  server = await startNatsServer(dir.dir);
  nc = await connect({ servers: server.url });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: "PUB_TEST", subjects: ["pub.test.>"], storage: "file" });
}, 30_000);

afterAll(async () => {
  await nc?.close();
  await server?.stop();
  dir.cleanup();
}, 30_000);

const withId = (id: string) => {
  const h = headers();
  h.set("Nats-Msg-Id", id);
  return h;
};

async function storeFailed(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await promise.then(
    () => new Error("resolved"),
    (e: unknown) => e,
  );
  expect((error as { code?: string }).code).toBe("store_failed");
  expect((error as Error).message).toMatch(pattern);
}

describe("JsPublisher on a real nats-server", { timeout: 30_000 }, () => {
  it("resolves 500 publishes in flight at once with consecutive sequences, in publish order", async () => {
    const publisher = new JsPublisher(nc);
    const acks = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        publisher.publish("pub.test.order", `m${i}`, withId(`order-${i}`)),
      ),
    );
    const first = acks[0]!.seq;
    expect(acks.map((a) => a.seq)).toEqual(acks.map((_, i) => first + i));
    expect(acks.every((a) => a.stream === "PUB_TEST" && !a.duplicate)).toBe(true);
    expect(publisher.outstanding).toBe(0);
    publisher.close();
  });

  it("reports a resend of the same Nats-Msg-Id a duplicate, with the stored sequence", async () => {
    const publisher = new JsPublisher(nc);
    const stored = await publisher.publish("pub.test.dup", "x", withId("dup-1"));
    const again = await publisher.publish("pub.test.dup", "x", withId("dup-1"));
    expect(again).toEqual({ stream: "PUB_TEST", seq: stored.seq, duplicate: true });
    publisher.close();
  });

  it("fails a publish to a subject no stream holds (no responders)", async () => {
    const publisher = new JsPublisher(nc);
    await storeFailed(publisher.publish("nostream.here", "x", withId("n-1")), /no responders/);
    publisher.close();
  });

  it("fails a publish nobody acks within the timeout, and forgets it", async () => {
    const silent = nc.subscribe("silent.subject", { callback: () => undefined });
    await nc.flush();
    const publisher = new JsPublisher(nc, 200);
    await storeFailed(publisher.publish("silent.subject", "x", withId("s-1")), /within 200 ms/);
    expect(publisher.outstanding).toBe(0);
    silent.unsubscribe();
    publisher.close();
  });

  it("rejects what waits when closed, and every publish after", async () => {
    const silent = nc.subscribe("silent.close", { callback: () => undefined });
    await nc.flush();
    const publisher = new JsPublisher(nc);
    const waiting = publisher.publish("silent.close", "x", withId("c-1"));
    publisher.close();
    await storeFailed(waiting, /closed/);
    await storeFailed(publisher.publish("pub.test.after", "x", withId("c-2")), /closed/);
    silent.unsubscribe();
  });

  it("rejects what waits when its connection closes", async () => {
    const own = await connect({ servers: server.url });
    const silent = own.subscribe("silent.conn", { callback: () => undefined });
    await own.flush();
    const publisher = new JsPublisher(own);
    const waiting = publisher.publish("silent.conn", "x", withId("k-1"));
    await own.close();
    const error = await waiting.then(
      () => new Error("resolved"),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(publisher.outstanding).toBe(0);
    silent.unsubscribe();
  });
});
