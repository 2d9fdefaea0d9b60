/**
 * A hub with no NATS connection at all: one `nats-server` (JetStream), one
 * `ocp-hub --nats` process. The server is killed (SIGKILL by pid): the hub's
 * agents get a retryable `store_failed` naming the NATS connection at once,
 * not after the JetStream timeout. The server restarts on the same port and
 * store: the hub reconnects, the resent messages are acknowledged, and its
 * attached recipient gets every acknowledged message exactly once, in
 * sequence (its deliveries resume after the reconnect from where it was).
 */
import { fileURLToPath } from "node:url";
import type { DeliveredMessage, HubClient } from "@ocp/a2a-ocp-client";
import { createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { client, identity, tempDir, until } from "@ocp/testkit";
import {
  type HubProcess,
  type NatsServer,
  startClusterHub,
  startNatsServer,
  stopProcess,
  transport,
} from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NATS_REQUEST_TIMEOUT_MS } from "../../src/nats/limits.js";

const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
/** Far below NATS_REQUEST_TIMEOUT_MS: the hub answers, it does not wait for JetStream to time out. */
const AT_ONCE_MS = 2000;

const dir = tempDir("ocp-nats-down-");
let nats: NatsServer | undefined;
let hub: HubProcess | undefined;
const clients: HubClient[] = [];

beforeAll(async () => {
  nats = await startNatsServer(dir.dir);
  hub = await startClusterHub(CLI, nats.url, "down");
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  if (hub !== undefined) await stopProcess(hub.child);
  await nats?.stop();
  dir.cleanup();
}, 60_000);

async function join(name: string) {
  const id = identity(name);
  const joined = await client(hub!.url, id, { transport, ackTimeoutMs: 20_000 });
  clients.push(joined.client);
  return { id, ...joined };
}

describe("a hub whose NATS server is gone", () => {
  it("refuses durable sends at once with a retryable store_failed naming the NATS connection, then resumes deliveries once NATS is back", {
    timeout: 120_000,
  }, async () => {
    const sink = await join("down-sink");
    const received: DeliveredMessage[] = [...sink.received];
    sink.client.on("message", (m) => received.push(m));
    const producer = await join("down-producer");
    const wire = (i: number) =>
      signObject(
        createMessage({
          type: "ocp.custom.note",
          from: producer.id.id,
          to: sink.id.id,
          payload: { i },
        }) as Record<string, unknown>,
        producer.id.secretKey,
        nativeEd25519,
      );
    const acked: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = wire(i);
      await producer.client.send(m as never);
      acked.push(String(m["id"]));
    }
    await until(() => received.length >= 5, "the first five deliveries");

    const port = nats!.port;
    await stopProcess(nats!.child, "SIGKILL");
    const refused: Array<{ id: string; message: Record<string, unknown> }> = [];
    const waits: number[] = [];
    for (let i = 5; i < 15; i++) {
      const m = wire(i);
      const started = performance.now();
      const error = await producer.client.send(m as never).then(
        () => undefined,
        (e: unknown) => e as { code?: string; message?: string },
      );
      waits.push(performance.now() - started);
      expect(error?.code).toBe("store_failed");
      expect(error?.message).toMatch(/NATS connection/);
      refused.push({ id: String(m["id"]), message: m });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(Math.max(...waits)).toBeLessThan(AT_ONCE_MS);
    expect(AT_ONCE_MS).toBeLessThan(NATS_REQUEST_TIMEOUT_MS);

    nats = await startNatsServer(dir.dir, port);
    // Each refused message, sent again, is stored once NATS is back.
    for (const { id, message } of refused) {
      for (;;) {
        const code = await producer.client.send(message as never).then(
          () => "ack",
          (e: unknown) => (e as { code?: string }).code ?? "",
        );
        if (code === "ack") break;
        expect(code).toBe("store_failed");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      acked.push(id);
    }
    await until(() => received.length >= acked.length, "every acknowledged message", 30_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.map((m) => m.message.id)).toEqual(acked);
    const seqs = received.map((m) => m.seq ?? 0);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    process.stderr.write(
      `nats down: longest refusal ${Math.round(Math.max(...waits))} ms, ${refused.length} refused then stored\n`,
    );
  });
});
