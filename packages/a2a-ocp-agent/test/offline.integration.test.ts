/**
 * The regression test of "durable messages silently expire after about 5
 * minutes", over a real hub and real sockets: an agent offline for 335 s
 * (past the hub's default TTL of 300 s, plus its skew grace) reconnects and
 * still receives a proposal with a 24-hour voting period and the knowledge
 * the hub acknowledged as durable. Nothing waits 335 s: the hub's clock
 * (its `now` option) is moved on while the agent is away.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HubClient, type SendReceipt } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import {
  type AgentIdentity,
  type ConsensusProposePayload,
  generateIdentity,
  type KnowledgeNode,
} from "@ocp/a2a-ocp-messaging";
import { DEFAULT_TTL_SECONDS, MAX_CLOCK_SKEW_MS } from "@ocp/a2a-ocp-messaging/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import type { ConsensusDecision } from "../src/agent-consensus.js";
import { hubLink } from "../src/hub-link.js";
import { node, until } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "ocp-agent-offline-"));
/** The hub's clock runs `offset` ms ahead of the real one. */
let offset = 0;
const hubNow = () => Date.now() + offset;
let hub: OCPHub;
const agents: OCPAgent[] = [];

/**
 * An agent on the hub; `setup` attaches listeners before it connects, so no
 * delivery is missed. Its link records the hub's acks.
 */
async function agent(identity: AgentIdentity, lastSeq = 0, setup?: (a: OCPAgent) => void) {
  const client = new HubClient({
    url: hub.url,
    identity,
    lastSeq,
    transport: { reconnectBaseMs: 20 },
  });
  const link = hubLink(client);
  const receipts: SendReceipt[] = [];
  const send = link.send;
  link.send = async (message) => {
    const receipt = (await send(message)) as SendReceipt;
    receipts.push(receipt);
    return receipt;
  };
  const a = new OCPAgent({ identity, link }).start();
  agents.push(a);
  setup?.(a);
  await client.connect();
  await until(() => hub.connectedAgents().includes(identity.id), `${identity.id} registered`);
  return { agent: a, client, receipts };
}

beforeAll(async () => {
  hub = await OCPHub.start({
    dbPath: join(dir, "hub.sqlite"),
    rateLimits: { messages: 100_000, broadcasts: 100_000, collectiveQueries: 1000 },
    onError: () => {},
    now: hubNow,
  });
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("an agent offline past the hub's default TTL", () => {
  it("reconnects 335 s later and still receives a 24 h proposal and durable knowledge, and its vote decides", async () => {
    const alice = await agent(generateIdentity(`a2a://alice-${process.pid}`));
    const bobId = generateIdentity(`a2a://bob-${process.pid}`);
    const before: KnowledgeNode[] = [];
    const bob = await agent(bobId, 0, (a) => a.on("knowledge", (nodes) => before.push(...nodes)));
    // Alice's existing node reaches Bob when he subscribes: the subscription is in place.
    await alice.agent.streamKnowledge([node({ createdBy: alice.agent.id, title: "Old note" })]);
    await bob.agent.subscribe(alice.agent.id, { deliveryMode: "push" });
    await until(() => before.length === 1, "the subscription's first stream");
    const lastSeq = bob.client.lastSeq;
    await bob.agent.close();
    alice.receipts.length = 0;

    // While Bob is away: Alice streams a fix to her subscriber and proposes with a 24 h vote.
    await alice.agent.streamKnowledge([
      node({ createdBy: alice.agent.id, title: "WebSocket memory leak fix" }),
    ]);
    const proposalId = await alice.agent.propose({
      topic: "Adopt the fix",
      proposal: {},
      votingPeriod: 24 * 3600,
      requiredVotes: 1,
      votingRule: "majority",
    });
    const [stream, proposal] = alice.receipts;
    // The hub acked both as durable, and says they live a day, not the default 5 minutes.
    const sentAt = Date.now();
    for (const receipt of [stream, proposal]) {
      expect(receipt).toMatchObject({ durable: true, recipients: 1 });
      const expiresAt = Date.parse(receipt?.expiresAt ?? "");
      expect(expiresAt).toBeGreaterThan(sentAt + 24 * 3600_000 - 60_000);
    }

    // 335 s later on the hub's clock: past the default TTL and its skew grace; the sweep has run.
    offset = (DEFAULT_TTL_SECONDS + 35) * 1000;
    expect(offset).toBeGreaterThan(DEFAULT_TTL_SECONDS * 1000 + MAX_CLOCK_SKEW_MS);
    await hub.store.sweep(hubNow());

    const knowledge: KnowledgeNode[] = [];
    const proposals: ConsensusProposePayload[] = [];
    const decisions: ConsensusDecision[] = [];
    const back = await agent(bobId, lastSeq, (a) => {
      a.on("knowledge", (nodes) => knowledge.push(...nodes));
      a.on("proposal", (p) => proposals.push(p));
      a.on("consensus", (d) => decisions.push(d));
    });
    await until(() => knowledge.length === 1 && proposals.length === 1, "the missed messages");
    expect(knowledge[0]?.title).toBe("WebSocket memory leak fix");
    expect(proposals[0]).toMatchObject({ proposalId, votingPeriod: 24 * 3600 });

    // Bob's vote, sent on the hub's later clock, still reaches the proposer and decides.
    await back.agent.vote(proposalId, "approve");
    await until(() => decisions.length === 1, "the decision");
    expect(decisions[0]).toMatchObject({ proposalId, status: "achieved", outcome: "approved" });
  });
});
