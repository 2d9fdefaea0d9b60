/**
 * Issue 46: what the hub (and so its dashboard) says of its store's health.
 * A real nats-server and an in-process clustered hub: `stats().storeConnected`
 * turns false while the NATS server is gone and true again once it is back.
 */
import { tempDir } from "@ocp/testkit";
import { type NatsServer, startNatsServer } from "@ocp/testkit/nats";
import { afterAll, describe, expect, it } from "vitest";
import { OCPHub } from "../../src/index.js";
import { connectNats } from "../../src/nats/connect.js";

const dir = tempDir("ocp-store-health-");
let nats: NatsServer | undefined;
let hub: OCPHub | undefined;

afterAll(async () => {
  await hub?.close().catch(() => undefined);
  await nats?.stop();
  dir.cleanup();
}, 60_000);

async function eventually(probe: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the store's health in the hub's stats (and the dashboard's)", () => {
  it("storeConnected is false while the NATS server is gone, true once it is back", {
    timeout: 90_000,
  }, async () => {
    nats = await startNatsServer(dir.dir);
    const port = Number(new URL(nats.url).port);
    const cluster = await connectNats({ servers: nats.url, workspace: "health" });
    hub = await OCPHub.start({ store: cluster.store, bus: cluster.bus, onError: () => {} });
    expect(hub.stats().storeConnected).toBe(true);
    await nats.stop();
    await eventually(() => hub?.stats().storeConnected === false, "the store reported down");
    nats = await startNatsServer(dir.dir, port);
    await eventually(() => hub?.stats().storeConnected === true, "the store reported back");
  });

  it("a hub on its SQLite file always reports its store reachable", async () => {
    const local = tempDir("ocp-store-health-sqlite-");
    const sqlite = await OCPHub.start({ dbPath: `${local.dir}/hub.sqlite`, onError: () => {} });
    try {
      expect(sqlite.stats().storeConnected).toBe(true);
    } finally {
      await sqlite.close();
      local.cleanup();
    }
  });
});
