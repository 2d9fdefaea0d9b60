/**
 * Issue 44, durability of a hub link: the link between two real hubs runs
 * through a TCP proxy the test cuts mid-stream (twice); every message acme
 * acknowledged to alice reaches bob at globex once the link is back, and
 * none twice.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { type AgentIdentity, createMessage, signObject } from "@ocp/a2a-ocp-messaging";
import type { RawAgent } from "@ocp/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hubIdentity, type Org, peerEntry, startOrg } from "./federation-support.js";
import { node, until } from "./support.js";

vi.setConfig({ testTimeout: 60_000 });

const orgs: Org[] = [];
let proxy: { server: Server; cut: () => void } | undefined;
afterEach(async () => {
  proxy?.cut();
  await new Promise((r) => proxy?.server.close(r) ?? r(undefined));
  for (const org of orgs.splice(0).reverse()) await org.close();
});

/** A TCP proxy to `target` (ws://host:port); `cut()` destroys every connection through it. */
async function tcpProxy(
  target: string,
): Promise<{ url: string; server: Server; cut: () => void; connections: () => number }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((downstream) => {
    connections += 1;
    const upstream = connect(Number(port), hostname);
    for (const s of [downstream, upstream]) {
      sockets.add(s);
      s.on("error", () => s.destroy());
      s.on("close", () => sockets.delete(s));
    }
    downstream.pipe(upstream).pipe(downstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${address.port}`,
    server,
    connections: () => connections,
    cut: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

function stream(from: { id: AgentIdentity; raw: RawAgent }, to: string, nodeId: string) {
  const m = createMessage({
    type: "ocp.knowledge.stream",
    from: from.id.id,
    to,
    payload: {
      streamId: "s",
      nodes: [node(from.id.id, nodeId, { visibility: "public" })],
      edges: [],
      isIncremental: true,
      sequenceNumber: 1,
    },
  } as Parameters<typeof createMessage>[0]);
  from.raw.send(JSON.stringify(signObject(m, from.id.secretKey)));
  return m.id;
}

describe("federation: a hub link cut mid-stream", () => {
  it("loses nothing acknowledged and applies nothing twice once the link returns", async () => {
    const acmeKey = hubIdentity("acme");
    const globexKey = hubIdentity("globex");
    const acme = await startOrg("acme", acmeKey, [peerEntry("globex", globexKey)]);
    orgs.push(acme);
    const cutProxy = await tcpProxy(acme.federation.url!);
    proxy = cutProxy;
    const globex = await startOrg("globex", globexKey, [peerEntry("acme", acmeKey, cutProxy.url)], {
      listen: false,
    });
    orgs.push(globex);
    await until(() => globex.federation.links()[0]!.open, "the link");
    const alice = await acme.agent("alice");
    const bob = await globex.agent("bob");
    await until(() => acme.federation.registry.get(bob.id.id) !== undefined, "bob vouched");
    await until(() => globex.federation.registry.get(alice.id.id) !== undefined, "alice vouched");
    const ids: string[] = [];
    for (let i = 0; i < 90; i++) {
      ids.push(stream(alice, bob.id.id, `cut-${i}`));
      if (i === 30) cutProxy.cut();
      if (i === 60) {
        // The second cut, once the link was dialled again (so it cuts a live link too).
        await until(
          () => cutProxy.connections() >= 2 && globex.federation.links()[0]!.open,
          "relink",
        );
        cutProxy.cut();
      }
    }
    const acked = () =>
      ids.filter((id) =>
        alice.raw.controls().some((c) => c.type === "ocp.hub.ack" && c.payload["id"] === id),
      );
    await until(() => acked().length === ids.length, "every ack at acme");
    await until(
      () => ids.every((id) => bob.raw.delivered().some((d) => d.includes(id))),
      "every acknowledged message at bob",
    );
    await new Promise((r) => setTimeout(r, 300));
    for (const id of ids) {
      expect(bob.raw.delivered().filter((d) => d.includes(id)).length).toBe(1);
    }
    // The link was cut twice and dialled again each time; the outbox is empty.
    expect(cutProxy.connections()).toBeGreaterThanOrEqual(3);
    expect(await acme.federation.store.inner.pending(globexKey.id, 0, 10, Date.now())).toEqual([]);
  });
});
