/**
 * Issue 44, clusters: acme is three `ocp-hub --nats --federate` processes on
 * one real nats-server (one hub identity), federated with globex, a single
 * hub. One acme hub holds the link at a time; agents on any acme hub
 * exchange with globex both ways; SIGKILL of the holder mid-stream: another
 * hub takes the link within the lease TTL (plus a renewal and a dial), and
 * nothing acknowledged is lost or applied twice.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type AgentIdentity,
  createMessage,
  generateIdentity,
  signObject,
} from "@ocp/a2a-ocp-messaging";
import { type RawAgent, rawAgent, tempDir } from "@ocp/testkit";
import {
  type HubProcess,
  type NatsServer,
  startClusterHub,
  startNatsServer,
  stopProcess,
} from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEDERATION_LEASE_RENEW_MS, FEDERATION_LEASE_TTL_MS } from "../src/federation/limits.js";
import { loadHubIdentity } from "../src/hub-identity.js";
import { hubIdentity, type Org, peerEntry, startOrg } from "./federation-support.js";
import { node, until } from "./support.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const dir = tempDir("ocp-fedcluster-");
let nats: NatsServer | undefined;
let globex: Org | undefined;
const hubs: HubProcess[] = [];
const agents: RawAgent[] = [];

/** Which live acme hub holds the link to globex now (its log says so last). */
function holder(): number {
  return hubs.findIndex((hub) => {
    if (hub.child.exitCode !== null || hub.child.signalCode !== null) return false;
    const log = hub.stderr();
    const took = log.lastIndexOf("this hub holds the link of");
    return took >= 0 && took > log.lastIndexOf("no longer holds the link of");
  });
}

async function agent(
  url: string,
  id: AgentIdentity,
): Promise<{ id: AgentIdentity; raw: RawAgent }> {
  const raw = await rawAgent(url, id, 10_000, { profile: { visibility: "public" } });
  agents.push(raw);
  return { id, raw };
}

/** `from` streams one node of `visibility` to `to`; the message id. */
function stream(
  from: { id: AgentIdentity; raw: RawAgent },
  to: string,
  nodeId: string,
  visibility: "public" | "team" = "public",
): string {
  const m = createMessage({
    type: "ocp.knowledge.stream",
    from: from.id.id,
    to,
    payload: {
      streamId: "s",
      nodes: [node(from.id.id, nodeId, { visibility })],
      edges: [],
      isIncremental: true,
      sequenceNumber: 1,
    },
  } as Parameters<typeof createMessage>[0]);
  from.raw.send(JSON.stringify(signObject(m, from.id.secretKey)));
  return m.id;
}

const acked = (a: { raw: RawAgent }, id: string) =>
  a.raw.controls().some((c) => c.type === "ocp.hub.ack" && c.payload["id"] === id);
const received = (a: { raw: RawAgent }, nodeId: string) =>
  a.raw.delivered().filter((d) => d.includes(`"${nodeId}"`)).length;

/** Sends probes until the hub of `from` routes to `to` (it learnt the card) and one arrives. */
async function reach(
  from: { id: AgentIdentity; raw: RawAgent },
  to: { id: AgentIdentity; raw: RawAgent },
  tag: string,
) {
  const deadline = Date.now() + 30_000;
  for (let i = 0; !to.raw.delivered().some((d) => d.includes(`"${tag}-probe-`)); i++) {
    if (Date.now() > deadline) throw new Error(`${tag}: no probe arrived`);
    stream(from, to.id.id, `${tag}-probe-${i}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  nats = await startNatsServer(join(dir.dir, "nats"));
  const acmePath = join(dir.dir, "acme-hub.key");
  const acmeKey = (await loadHubIdentity(acmePath, { id: "a2a://acme-hub" })).identity;
  const globexKey = hubIdentity("globex");
  globex = await startOrg("globex", globexKey, [peerEntry("acme", acmeKey)]);
  const fedPath = join(dir.dir, "acme-federate.json");
  writeFileSync(
    fedPath,
    JSON.stringify({ peers: [peerEntry("globex", globexKey, globex.federation.url)] }),
  );
  for (let i = 0; i < 3; i++) {
    hubs.push(
      await startClusterHub(CLI, nats.url, "fedcluster", [
        "--identity",
        acmePath,
        "--federate",
        fedPath,
        "--db",
        join(dir.dir, `acme-${i}.db`),
      ]),
    );
  }
}, 120_000);

afterAll(async () => {
  for (const raw of agents) raw.close();
  await Promise.all(hubs.map((hub) => stopProcess(hub.child)));
  await globex?.close();
  await nats?.stop();
  dir.cleanup();
}, 60_000);

describe("federation from a NATS-clustered organisation", { timeout: 120_000 }, () => {
  it("one acme hub holds the link; agents on every acme hub exchange with globex both ways; a team node does not cross", async () => {
    await until(() => globex!.federation.links()[0]!.open, "the link", 20_000);
    const held = holder();
    expect(held).toBeGreaterThanOrEqual(0);
    expect(
      hubs.filter((_, i) => i !== held).every((h) => !h.stderr().includes("holds the link")),
    ).toBe(true);
    const bob = await agent(globex!.hub.url, generateIdentity("a2a://globex/bob"));
    const onHub = await Promise.all(
      hubs.map((hub, i) => agent(hub.url, generateIdentity(`a2a://acme/agent-${i}`))),
    );
    for (const [i, a] of onHub.entries()) {
      await reach(a, bob, `out-${i}`);
      await reach(bob, a, `in-${i}`);
    }
    // The crossing rule holds on every hub of the cluster: a team node never reaches globex.
    const from = onHub[(held + 1) % 3]!;
    const team = stream(from, bob.id.id, "acme-team-secret", "team");
    stream(from, bob.id.id, "after-the-secret");
    await until(() => received(bob, "after-the-secret") === 1, "the public node after it");
    expect(received(bob, "acme-team-secret")).toBe(0);
    expect(bob.raw.delivered().some((d) => d.includes(team))).toBe(false);
    expect(
      globex!.audit.entries().some((e) => JSON.stringify(e).includes("acme-team-secret")),
    ).toBe(false);
  });

  it("SIGKILL of the hub holding the link mid-stream: another hub takes it within the lease TTL, nothing acknowledged is lost or applied twice", async () => {
    const held = holder();
    const others = [0, 1, 2].filter((i) => i !== held);
    const bob = await agent(globex!.hub.url, generateIdentity("a2a://globex/bob-2"));
    const sender = await agent(hubs[others[0]!]!.url, generateIdentity("a2a://acme/sender"));
    const sink = await agent(hubs[others[1]!]!.url, generateIdentity("a2a://acme/sink"));
    await reach(sender, bob, "warm-out");
    await reach(bob, sink, "warm-in");
    const out: string[] = [];
    const inward: string[] = [];
    let killedAt = 0;
    for (let i = 0; i < 80; i++) {
      out.push(stream(sender, bob.id.id, `out-${i}`));
      inward.push(stream(bob, sink.id.id, `in-${i}`));
      if (i === 30) {
        killedAt = Date.now();
        await stopProcess(hubs[held]!.child, "SIGKILL");
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await until(
      () => holder() >= 0 && holder() !== held && globex!.federation.links()[0]!.open,
      "another hub holds the link",
      FEDERATION_LEASE_TTL_MS + 10_000,
    ).catch((error) => {
      throw new Error(`${error}\n${hubs.map((h) => h.stderr()).join("\n---\n")}`);
    });
    const tookOver = Date.now() - killedAt;
    // The lease expires, a standby takes it at its next try and dials at once.
    expect(tookOver).toBeLessThan(FEDERATION_LEASE_TTL_MS + 2 * FEDERATION_LEASE_RENEW_MS + 2_000);
    await until(() => out.every((id) => acked(sender, id)), "every ack at acme", 30_000);
    await until(() => inward.every((id) => acked(bob, id)), "every ack at globex", 30_000);
    await until(
      () => out.every((_, i) => received(bob, `out-${i}`) >= 1),
      "every acknowledged message at bob",
      30_000,
    );
    await until(
      () => inward.every((_, i) => received(sink, `in-${i}`) >= 1),
      "every acknowledged message at the sink",
      30_000,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    for (let i = 0; i < 80; i++) {
      expect(received(bob, `out-${i}`), `out-${i}`).toBe(1);
      expect(received(sink, `in-${i}`), `in-${i}`).toBe(1);
    }
  });
});
