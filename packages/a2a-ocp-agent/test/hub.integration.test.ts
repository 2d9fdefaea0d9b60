import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import type { ConsensusDecision } from "../src/agent-consensus.js";
import { hubLink } from "../src/hub-link.js";
import { SqliteGraph } from "../src/sqlite/sqlite-graph.js";
import { sharedFeatureScenario } from "./scenario.js";
import { until, within } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "ocp-agent-"));
const hubOptions = () => ({
  dbPath: join(dir, "hub.sqlite"),
  rateLimits: { messages: 100_000, broadcasts: 100_000, collectiveQueries: 1000 },
  onError: () => {},
});
let hub: OCPHub;
const agents: OCPAgent[] = [];

async function agent(name: string): Promise<OCPAgent> {
  const identity = generateIdentity(`a2a://${name}-${process.pid}`);
  const client = new HubClient({ url: hub.url, identity, transport: { reconnectBaseMs: 20 } });
  await client.connect();
  const a = new OCPAgent({
    identity,
    link: hubLink(client),
    graph: new SqliteGraph(identity.id, join(dir, `${name}.sqlite`)),
  }).start();
  agents.push(a);
  return a;
}

beforeAll(async () => {
  hub = await OCPHub.start(hubOptions());
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("OCPAgent over a real hub (WebSocket, SQLite)", () => {
  it("every §5 feature works between agents over real sockets, and a voting period ends with a verified timeout across a hub restart", async () => {
    const alice = await agent("alice");
    const bob = await agent("bob");
    const carol = await agent("carol");

    await carol.beacon({ status: "working", availability: "available" });
    await until(() => alice.presence.get(carol.id) !== undefined, "carol's beacon");

    // §5.1 knowledge, §5.6 sync, §5.2 collective query and §5.5 events through the hub.
    await sharedFeatureScenario(alice, bob, carol);

    // §5.3 consensus: a quorum that is not met times out while the hub is down; announced after it restarts.
    const decisions: ConsensusDecision[] = [];
    bob.on("consensus", (d) => decisions.push(d));
    const proposed = within(bob.once("proposal"), 15_000, "proposal");
    const proposalId = await alice.propose({
      topic: "Adopt Rust",
      proposal: {},
      votingPeriod: 1.5,
      requiredVotes: 3,
      votingRule: "majority",
    });
    await proposed;
    const counted = within(alice.once("vote"), 15_000, "vote reaches the proposer");
    await bob.vote(proposalId, "approve");
    await counted;
    const port = hub.port;
    await hub.close();
    // The voting period (1.5 s) ends while the hub is down; the proposer's announcement waits for it.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    hub = await OCPHub.start({ ...hubOptions(), port });
    await until(() => decisions.length === 1, "timeout announcement after the hub restart", 30_000);
    expect(decisions[0]).toMatchObject({
      proposalId,
      status: "timeout",
      verified: true,
      votes: { approve: 1, reject: 0, abstain: 0 },
    });
  }, 60_000);
});
