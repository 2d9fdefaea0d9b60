/**
 * Issue 44, clusters: the lease of a peer's link among the hubs of a NATS
 * cluster (real nats-server, two in-process hubs sharing one hub identity).
 * One holds the link; the other refuses a hub link from that peer
 * (`federation_standby`) instead of forwarding from the same outbox; a hub
 * that closes gives the lease up and the other takes the link at its next
 * try; a JetStream store without the cluster options cannot federate.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Kvm } from "@nats-io/kv";
import { connect } from "@nats-io/transport-node";
import { createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { tempDir, testHubOptions } from "@ocp/testkit";
import { type NatsServer, startNatsServer } from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFederationConfig } from "../src/federation/config.js";
import { Dialer } from "../src/federation/dial.js";
import { Federation } from "../src/federation/federation.js";
import { FEDERATION_LEASE_RENEW_MS } from "../src/federation/limits.js";
import { OCPHub } from "../src/index.js";
import { connectNats, federationShare } from "../src/nats/connect.js";
import { hubIdentity, type Org, peerEntry, startOrg } from "./federation-support.js";
import { until } from "./support.js";

const dir = tempDir("ocp-fedlease-");
let nats: NatsServer | undefined;
const closers: Array<() => Promise<unknown>> = [];
const acmeKey = generateIdentity("a2a://acme-hub");
const globexKey = hubIdentity("globex");

/** An acme hub of the cluster, federated with globex, accepting hub links. */
async function clusterHub(i: number, globexUrl?: string) {
  const cluster = await connectNats({ servers: nats!.url, workspace: "lease" });
  const config = parseFederationConfig({
    listen: { host: "127.0.0.1", port: 0 },
    peers: [peerEntry("globex", globexKey, globexUrl)],
  });
  const base = testHubOptions(join(dir.dir, `hub-${i}`));
  mkdirSync(join(dir.dir, `hub-${i}`), { recursive: true });
  const federation = new Federation({
    config,
    dbPath: base.dbPath,
    cluster: federationShare(cluster),
  });
  const hub = await OCPHub.start({
    ...base,
    identity: acmeKey,
    store: federation.store,
    bus: cluster.bus,
    allow: federation.allow,
  });
  await federation.start(hub);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await federation.close();
    await hub.close();
  };
  closers.push(close);
  return { hub, federation, close };
}

/** Dials `url` as globex; resolves with the refusal, or "linked". */
function dialAsGlobex(url: string): Promise<string> {
  return new Promise((resolve) => {
    const peer = parseFederationConfig({ peers: [{ ...peerEntry("acme", acmeKey, url) }] })
      .peers[0]!;
    const dialer = new Dialer(peer, globexKey, {
      onLink: () => {
        dialer.stop().then(() => resolve("linked"));
      },
      onRefused: (reason) => {
        dialer.stop().then(() => resolve(reason));
      },
    });
    dialer.start();
  });
}

beforeAll(async () => {
  nats = await startNatsServer(join(dir.dir, "nats"));
}, 60_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await nats?.stop();
  dir.cleanup();
}, 60_000);

describe("the lease of a federated link among the hubs of a cluster", { timeout: 60_000 }, () => {
  it("the hub that does not hold globex's link refuses a hub link from globex (federation_standby); the holder accepts it", async () => {
    const a = await clusterHub(0);
    await new Promise((r) => setTimeout(r, FEDERATION_LEASE_RENEW_MS));
    const b = await clusterHub(1);
    await new Promise((r) => setTimeout(r, FEDERATION_LEASE_RENEW_MS));
    expect(await dialAsGlobex(b.federation.url!)).toMatch(/^federation_standby/);
    expect(await dialAsGlobex(a.federation.url!)).toBe("linked");
    await b.close();
    await a.close();
  });

  it("a holder that closes gives the lease up: the other hub takes globex's link at its next try and dials it", async () => {
    const globex: Org = await startOrg("globex", globexKey, [peerEntry("acme", acmeKey)]);
    closers.push(() => globex.close());
    const a = await clusterHub(2, globex.federation.url);
    await until(() => globex.federation.links()[0]!.open, "a holds the link");
    const b = await clusterHub(3, globex.federation.url);
    await new Promise((r) => setTimeout(r, 2 * FEDERATION_LEASE_RENEW_MS));
    expect(await dialAsGlobex(b.federation.url!)).toMatch(/^federation_standby/);
    const closedAt = Date.now();
    await a.close();
    await until(() => globex.federation.links()[0]!.open, "b holds the link", 10_000);
    // The lease was deleted, not left to expire: b took it at its next renewal tick.
    expect(Date.now() - closedAt).toBeLessThan(FEDERATION_LEASE_RENEW_MS + 2_000);
    expect(await dialAsGlobex(b.federation.url!)).toBe("linked");
  });

  it("what one hub learns is shared: a card globex vouched for and an inbound record reach the other hub; a forged or foreign card written to the bucket is not learned", async () => {
    const a = await clusterHub(4);
    const b = await clusterHub(5);
    const peer = a.federation.config.peers[0]!;
    const bob = generateIdentity("a2a://globex/bob");
    const card = createAgentProfile(bob, { extra: { visibility: "public" } }, nativeEd25519);
    expect(a.federation.registry.vouch(peer, card, () => false)).toMatchObject({
      profile: { id: bob.id },
    });
    await until(() => b.federation.registry.get(bob.id) !== undefined, "b learns bob's card");
    a.federation.registry.recordInbound(peer.hubId, "m-1", 7, Date.now() + 60_000, Date.now());
    await until(() => b.federation.registry.inboundSeq(peer.hubId, "m-1") === 7, "the record");
    // Whoever writes to the bucket directly: b checks each card as a peer's own vouching.
    const nc = await connect({ servers: nats!.url });
    const kv = await new Kvm(nc).open("OCP_lease_FED_CARDS");
    const mallory = generateIdentity("a2a://acme/mallory");
    const foreign = createAgentProfile(mallory, { extra: { visibility: "public" } }, nativeEd25519);
    const eve = generateIdentity("a2a://globex/eve");
    const forged = {
      ...createAgentProfile(eve, { extra: { visibility: "public" } }, nativeEd25519),
      name: "tampered",
    };
    await kv.put("foreign", JSON.stringify({ peer: peer.hubId, profile: foreign }));
    await kv.put("forged", JSON.stringify({ peer: peer.hubId, profile: forged }));
    const carol = generateIdentity("a2a://globex/carol");
    const carolCard = createAgentProfile(carol, { extra: { visibility: "public" } }, nativeEd25519);
    await kv.put("carol", JSON.stringify({ peer: peer.hubId, profile: carolCard }));
    await until(
      () => b.federation.registry.get(carol.id) !== undefined,
      "the honest one after them",
    );
    expect(b.federation.registry.get(mallory.id)).toBeUndefined();
    expect(b.federation.registry.get(eve.id)).toBeUndefined();
    await nc.close();
    await b.close();
    await a.close();
  });

  it("a hub on a JetStream store whose federation lacks the cluster options cannot federate (federation_unsupported)", async () => {
    const cluster = await connectNats({ servers: nats!.url, workspace: "lease-plain" });
    const base = testHubOptions(dir.dir);
    const federation = new Federation({
      config: parseFederationConfig({
        peers: [peerEntry("globex", globexKey, "ws://127.0.0.1:9")],
      }),
      dbPath: join(dir.dir, "plain.sqlite"),
    });
    const hub = await OCPHub.start({
      ...base,
      identity: acmeKey,
      store: cluster.store,
      bus: cluster.bus,
    });
    closers.push(async () => {
      await federation.close();
      await hub.close();
    });
    await expect(federation.start(hub)).rejects.toMatchObject({ code: "federation_unsupported" });
  });
});
