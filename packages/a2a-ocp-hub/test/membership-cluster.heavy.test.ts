/**
 * Membership across clustered hubs: a real `nats-server` and two
 * `ocp-hub --nats --allow FILE` processes. An agent's team is its allow-list
 * entry's on every hub; a profile it re-signs on one hub (saved in the shared
 * store, learned by the other through `watchAgents`) changes nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HubClient } from "@ocp/a2a-ocp-client";
import { type AgentIdentity, createAgentProfile } from "@ocp/a2a-ocp-messaging";
import { nativeEd25519 } from "@ocp/a2a-ocp-messaging/node";
import { accessNode, client, identity, tempDir, until } from "@ocp/testkit";
import {
  type HubProcess,
  type NatsServer,
  startClusterHub,
  startNatsServer,
  stopProcess,
} from "@ocp/testkit/nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const dir = tempDir("ocp-membership-cluster-");
const [ops, core, mate] = [identity("ops"), identity("core"), identity("mate")];
const card = (extra: Record<string, unknown>, issuedAt?: string) => ({
  extra: { capabilities: { ocp: { version: "1.0.0", features: ["x"] } }, ...extra },
  ...(issuedAt === undefined ? {} : { issuedAt }),
});
const profiles = {
  ops: createAgentProfile(ops, card({ team: "ops" }, "2020-01-01T00:00:00.000Z"), nativeEd25519),
  core: createAgentProfile(core, card({ team: "core", visibility: "team" }), nativeEd25519),
  mate: createAgentProfile(mate, card({ team: "core" }), nativeEd25519),
};
let nats: NatsServer | undefined;
const hubs: HubProcess[] = [];
const clients: HubClient[] = [];

beforeAll(async () => {
  const allow = join(dir.dir, "allow.json");
  writeFileSync(allow, JSON.stringify({ profiles: Object.values(profiles) }));
  nats = await startNatsServer(dir.dir);
  for (let i = 0; i < 2; i++) {
    hubs.push(await startClusterHub(cli, nats.url, "membership", ["--allow", allow]));
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(hubs.map((hub) => stopProcess(hub.child)));
  await nats?.stop();
  dir.cleanup();
}, 60_000);

async function connect(id: AgentIdentity, hub: number, profile: Record<string, unknown>) {
  const joined = await client(hubs[hub]!.url, id, { profile: profile as never, reconnect: false });
  clients.push(joined.client);
  return joined;
}

describe("clustered hubs: membership comes from each hub's allow-list", { timeout: 60_000 }, () => {
  it("a team claimed by re-signing on one hub is honoured by neither hub", async () => {
    // ops re-signs on hub 1 with team "core" (newer issuedAt: saved in the shared store).
    const resigned = createAgentProfile(ops, card({ team: "core" }), nativeEd25519);
    const spy = await connect(ops, 1, resigned);
    const author = await connect(core, 0, profiles.core);
    const member = await connect(mate, 1, profiles.mate);
    // The author's hub (0) decides recipients: mate is in core, ops is not.
    const receipt = await author.client.send({
      type: "ocp.knowledge.stream",
      to: "broadcast",
      payload: {
        streamId: "s",
        nodes: [accessNode(core.id, "core-secret", { visibility: "team" })],
        isIncremental: true,
        sequenceNumber: 0,
      },
    });
    expect(receipt).toMatchObject({ recipients: 1, excluded: 1 });
    await until(() => member.received.length === 1, "the team mate's node");
    await member.client.send({ type: "ocp.custom.fence", to: ops.id, payload: {} });
    await until(() => spy.received.length === 1, "the fence");
    expect(spy.received.map((d) => d.message.type)).toEqual(["ocp.custom.fence"]);
    // Discovery on the spy's hub (1) hides core's team-only card; the mate on hub 1 finds it.
    const found = (c: HubClient) => c.findAgents({ features: ["x"] }).then((r) => r.agents);
    // Hub 1 learns core's card through the shared store: wait until the mate finds it.
    const deadline = Date.now() + 20_000;
    while (!(await found(member.client)).some((a) => a.id === core.id)) {
      if (Date.now() > deadline) throw new Error("core's card never reached hub 1");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await found(spy.client)).map((a) => a.id)).not.toContain(core.id);
  });
});
