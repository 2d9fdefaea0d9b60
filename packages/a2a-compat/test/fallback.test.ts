import { TaskState } from "@a2a-js/sdk";
import { KNOWLEDGE_TTL_SECONDS } from "@ocp/a2a-ocp-agent/internal";
import type { OCPHub } from "@ocp/a2a-ocp-hub";
import type { KnowledgeNode } from "@ocp/a2a-ocp-messaging";
import { sampleNode as node } from "@ocp/testkit";
import { isOcpError } from "@ocp/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A2AFallback, CardResolver, OCP_EXTENSION_URI, type RouteInfo } from "../src/index.js";
import { TaskRequestSchema } from "../src/internal.js";
import {
  ocpAgent,
  type PlainAgent,
  plainA2AAgent,
  startHub,
  type TestAgent,
  tempDir,
  within,
} from "./support.js";

describe("§9.1 fallback to A2A", () => {
  const tmp = tempDir("ocp-a2a-fallback-");
  let hub: OCPHub;
  let alice: TestAgent;
  let bob: TestAgent;
  let plain: PlainAgent;
  let fallback: A2AFallback;
  const routes: RouteInfo[] = [];
  const PLAIN = "a2a://plain-a2a-agent";

  beforeAll(async () => {
    hub = await startHub(tmp.dir);
    alice = await ocpAgent(hub.url, "alice");
    bob = await ocpAgent(hub.url, "bob");
    // Knows nothing of OCP: answers receive_knowledge with a count and proposals with an approval.
    plain = await plainA2AAgent((data) => {
      const input = data["input"] as Record<string, unknown>;
      if (data["task"] === "receive_knowledge")
        return { accepted: (input["nodes"] as unknown[]).length };
      if (data["task"] === "vote_on_proposal")
        return {
          proposalId: input["proposalId"],
          vote: "approve",
          votedBy: PLAIN,
          reasoning: "looks fine to a plain agent",
        };
      return { unexpected: true };
    });
    const locations = new Map([
      [PLAIN, plain.url],
      [bob.identity.id, bob.server.url],
    ]);
    fallback = new A2AFallback({
      identity: alice.identity,
      resolver: new CardResolver({ locate: (id) => locations.get(id), timeoutMs: 5_000 }),
      ocp: alice.link,
      negotiator: alice.negotiator,
      onRoute: (r) => routes.push(r),
    });
  });

  afterAll(async () => {
    await alice.close();
    await bob.close();
    await plain.close();
    await hub.close();
    tmp.cleanup();
  });

  it("§9.1 a plain A2A agent (SDK server only) receives knowledge from an OCP agent as receive_knowledge, and its reply comes back", async () => {
    const nodes: KnowledgeNode[] = [
      node({ id: "n-1", title: "Retry with jitter", createdBy: alice.identity.id }),
      node({ id: "n-2", title: "Idempotency keys", createdBy: alice.identity.id }),
    ];
    const sent = await within(
      fallback.send(PLAIN, "ocp.knowledge.stream", {
        streamId: "s-1",
        nodes,
        isIncremental: false,
        sequenceNumber: 1,
      }),
      15_000,
      "fallback send",
    );
    expect(sent.path).toBe("a2a");
    if (sent.path !== "a2a") return;
    expect(sent.task).toBe("receive_knowledge");
    expect(sent.reply).toEqual({ accepted: 2 });
    const request = plain.received.at(-1);
    expect(request?.extensions).toEqual([OCP_EXTENSION_URI]);
    const data = request?.parts.find((p) => p.content?.$case === "data")?.content;
    const parsed = TaskRequestSchema.parse(data?.$case === "data" ? data.value : undefined);
    expect(parsed.task).toBe("receive_knowledge");
    expect(parsed.from).toBe(alice.identity.id);
    expect((parsed.input as { nodes: KnowledgeNode[] }).nodes.map((n) => n.id)).toEqual([
      "n-1",
      "n-2",
    ]);
    expect(routes.at(-1)).toMatchObject({
      path: "a2a",
      to: PLAIN,
      type: "ocp.knowledge.stream",
      task: "receive_knowledge",
      state: TaskState[TaskState.TASK_STATE_COMPLETED],
    });
  });

  it("§9.1 a proposal reaches the plain agent as vote_on_proposal and its vote comes back", async () => {
    const sent = await within(
      fallback.send(PLAIN, "ocp.consensus.propose", {
        proposalId: "prop-9",
        topic: "Adopt retries",
        proposal: { policy: "jitter" },
        votingPeriod: 60,
        requiredVotes: 1,
        votingRule: "majority",
      }),
    );
    expect(sent.path).toBe("a2a");
    if (sent.path !== "a2a") return;
    expect(sent.task).toBe("vote_on_proposal");
    expect(sent.reply).toEqual({
      proposalId: "prop-9",
      vote: "approve",
      votedBy: PLAIN,
      reasoning: "looks fine to a plain agent",
    });
    expect(routes.at(-1)).toMatchObject({ path: "a2a", task: "vote_on_proposal" });
  });

  it("§9.1 an agent whose card declares a2a+ocp gets the signed OCP message over the hub", async () => {
    const before = plain.received.length;
    const got = bob.agent.once("knowledge");
    const sent = await within(
      fallback.send(bob.identity.id, "ocp.knowledge.stream", {
        streamId: "s-2",
        nodes: [node({ id: "n-ocp", title: "Over OCP", createdBy: alice.identity.id })],
        isIncremental: false,
        sequenceNumber: 1,
      }),
    );
    expect(sent.path).toBe("ocp");
    // The lifetime of knowledge (24 h), not the hub's 5-minute default.
    expect(sent.path === "ocp" && sent.message["ttl"]).toBe(KNOWLEDGE_TTL_SECONDS);
    const [nodes, from] = await within(got, 15_000, "bob to merge the stream");
    expect(nodes.map((n) => n.id)).toEqual(["n-ocp"]);
    expect(from).toBe(alice.identity.id);
    expect(plain.received.length).toBe(before);
    expect(routes.at(-1)).toMatchObject({
      path: "ocp",
      to: bob.identity.id,
      type: "ocp.knowledge.stream",
    });
    // §7.2 ran first: bob confirmed alice's features.
    expect(alice.negotiator.confirmedWith(bob.identity.id)).toContain("knowledge_streaming");
  });

  it("a vote over OCP needs the proposal's deadline for its ttl: without it nothing is sent", async () => {
    const before = routes.length;
    await expect(
      fallback.send(bob.identity.id, "ocp.consensus.vote", {
        proposalId: "prop-x",
        vote: "approve",
        votedBy: alice.identity.id,
      }),
    ).rejects.toMatchObject({ code: "invalid_option" });
    expect(routes.length).toBe(before);
  });

  it("resolves each card once while it is fresh", async () => {
    const before = plain.cardRequests;
    await within(
      fallback.send(PLAIN, "ocp.knowledge.stream", {
        streamId: "s-3",
        nodes: [],
        isIncremental: true,
        sequenceNumber: 2,
      }),
    );
    expect(plain.cardRequests).toBe(before);
  });

  it("refuses a type without an A2A equivalent for a plain agent, and an agent without a known card", async () => {
    const noEquivalent = await fallback
      .send(PLAIN, "ocp.sync.request", { syncId: "sync-1", scope: ["knowledge"] })
      .catch((e: unknown) => e);
    expect(isOcpError(noEquivalent, "no_a2a_equivalent")).toBe(true);
    const unknown = await fallback
      .send("a2a://nobody", "ocp.knowledge.stream", {
        streamId: "s-4",
        nodes: [],
        isIncremental: true,
        sequenceNumber: 1,
      })
      .catch((e: unknown) => e);
    expect(isOcpError(unknown, "card_unavailable")).toBe(true);
  });

  it("reports a card that cannot be fetched as card_unavailable (bounded by the timeout)", async () => {
    const closed = await plainA2AAgent(() => ({}));
    const url = closed.url;
    await closed.close();
    const resolver = new CardResolver({ locate: () => url, timeoutMs: 2_000 });
    const error = await within(resolver.resolve("a2a://gone").catch((e: unknown) => e));
    expect(isOcpError(error, "card_unavailable")).toBe(true);
  });
});
