// Three agents in one process (MemoryNetwork: every message signed and
// verified, no hub): a filtered knowledge subscription, a collective query,
// a vote, and a graph kept in SQLite across a restart.
// Run: pnpm build && node example/team.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryNetwork, OCPAgent } from "@ocp/a2a-ocp-agent";
import { SqliteGraph } from "@ocp/a2a-ocp-agent/sqlite";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";

const dir = mkdtempSync(join(tmpdir(), "ocp-agent-example-"));
const network = new MemoryNetwork();
const identities = new Map();
function member(name, options = {}) {
  const identity = identities.get(name) ?? generateIdentity(`a2a://${name}`);
  identities.set(name, identity);
  const link = network.link(identity.id, identity.publicKey);
  return new OCPAgent({ identity, link, ...options }).start();
}
const node = (createdBy, title, extra = {}) => ({
  id: `${createdBy.slice(6)}-${title.toLowerCase().replaceAll(" ", "-")}`,
  type: "code.solution",
  title,
  data: {},
  confidence: 0.9,
  timestamp: new Date().toISOString(),
  createdBy,
  tags: [],
  ...extra,
});

const alice = member("alice");
const bob = member("bob");
const carolGraph = join(dir, "carol.sqlite");
let carol = member("carol", { graph: new SqliteGraph("a2a://carol", carolGraph) });

// §5.1 Bob subscribes to Alice's backend knowledge: he gets what matches, nothing else.
await alice.streamKnowledge([
  node(alice.id, "Close idle sockets", { metadata: { domain: "backend" } }),
  node(alice.id, "Button colours", { metadata: { domain: "frontend" } }),
]);
const streamed = new Promise((resolve) => bob.once("knowledge", (nodes) => resolve(nodes)));
await bob.subscribe(alice.id, { deliveryMode: "push", filters: { domains: ["backend"] } });
console.log("bob received:", (await streamed).map((n) => n.title).join(", "));

// §5.2 Alice asks the team; each agent answers from its own graph.
await bob.streamKnowledge([node(bob.id, "Retry with exponential backoff", { tags: ["retry"] })]);
await carol.streamKnowledge([node(carol.id, "Retry with jitter", { tags: ["retry"] })]);
const answer = await alice.collectiveQuery("how do we retry failed requests?", {
  minResponses: 2,
  timeout: 5000,
});
console.log(`alice asked: ${answer.responses.length} responses, stopped by ${answer.stoppedBy}`);
for (const line of answer.synthesis.answer.split("\n")) console.log(`  ${line}`);

// §5.3 Alice proposes, Bob and Carol vote; every agent checks the signed votes.
const decided = Promise.all(
  [alice, bob, carol].map((agent) => new Promise((resolve) => agent.once("consensus", resolve))),
);
const proposed = Promise.all(
  [bob, carol].map((agent) => new Promise((resolve) => agent.once("proposal", resolve))),
);
const proposalId = await alice.propose({
  topic: "Retry with jitter everywhere",
  proposal: { decision: "jittered backoff in every client" },
  votingPeriod: 60,
  requiredVotes: 2,
  votingRule: "majority",
});
await proposed;
await bob.vote(proposalId, "approve", "fewer thundering herds");
await carol.vote(proposalId, "approve");
for (const [i, decision] of (await decided).entries()) {
  const { status, outcome, votes, verified } = decision;
  console.log(
    `${["alice", "bob", "carol"][i]} learns: ${status} ${outcome} (${votes.approve} approve, ${votes.reject} reject); verified ${verified}`,
  );
}

// ./sqlite: Carol restarts on the same file and still knows what she knew.
await carol.close();
carol = member("carol", { graph: new SqliteGraph("a2a://carol", carolGraph) });
console.log("carol after restart:", carol.node("carol-retry-with-jitter")?.title);

await Promise.all([alice.close(), bob.close(), carol.close()]);
rmSync(dir, { recursive: true, force: true });
