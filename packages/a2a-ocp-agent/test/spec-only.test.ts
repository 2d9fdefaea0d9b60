import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { createAgentProfile, generateIdentity } from "@ocp/a2a-ocp-messaging";
import { tempDir, testHubOptions } from "@ocp/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import type { VoteMessage } from "../src/consensus.js";
import { hubLink } from "../src/hub-link.js";
import { connectSpecAgent, type Received, verifySigned } from "./spec-only/spec-agent.js";
import { until } from "./support.js";

const tmp = tempDir("ocp-spec-only-");
const WORKSPACE = "acme-engineering";
let hub: OCPHub;
let ours: OCPAgent;

beforeAll(async () => {
  hub = await OCPHub.start(testHubOptions(tmp.dir));
  const identity = generateIdentity(`a2a://ours-${process.pid}`);
  // Our card (§7.1): what discovery reads.
  const profile = createAgentProfile(identity, {
    extra: {
      capabilities: {
        protocols: ["a2a", "a2a+ocp"],
        ocp: { version: "1.0.0", features: ["knowledge_streaming", "consensus_voting"] },
      },
      workspace: WORKSPACE,
    },
  });
  const client = await HubClient.connect({ url: hub.url, identity, profile, reconnect: false });
  ours = new OCPAgent({ identity, link: hubLink(client) }).start();
}, 30_000);
afterAll(async () => {
  await ours?.close();
  await hub?.close();
  tmp.cleanup();
});

describe("an agent written from the specification only, through a real hub", () => {
  it("imports nothing from this repository", () => {
    const source = readFileSync(
      join(fileURLToPath(new URL(".", import.meta.url)), "spec-only", "spec-agent.ts"),
      "utf8",
    );
    const imports = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    expect(imports.sort()).toEqual(["node:crypto", "ws"]);
  });

  it("streams knowledge, then spec-shaped updates and deletions take effect in our agent", async () => {
    const spec = await connectSpecAgent(hub.url, `a2a://spec-${process.pid}`);
    try {
      const errors: unknown[] = [];
      ours.on("error", (e) => errors.push(e));
      const at = "2026-02-01T10:00:00Z";
      const nodes = ["a", "b"].map((n) => ({
        id: `spec-node-${n}`,
        type: "code.solution",
        title: `spec ${n}`,
        data: { n },
        confidence: 0.8,
        timestamp: at,
        createdBy: spec.id,
        tags: ["spec"],
      }));
      const edge = {
        id: "spec-edge-ab",
        source: "spec-node-a",
        target: "spec-node-b",
        relationship: "relates_to",
        weight: 0.5,
      };
      await spec.send("ocp.knowledge.stream", ours.id, {
        streamId: "spec-stream",
        nodes,
        edges: [edge],
        isIncremental: false,
        sequenceNumber: 1,
      });
      await until(() => ours.node("spec-node-b") !== undefined, "stream applied");
      expect(ours.graph.getEdge(edge.id)?.relationship).toBe("relates_to");
      await spec.send("ocp.knowledge.update", ours.id, {
        updates: [
          {
            nodeId: "spec-node-a",
            changes: { title: "spec a, revised", confidence: 0.95 },
            changeType: "modified",
          },
        ],
        deletions: ["spec-node-b"],
        newEdges: [],
        deletedEdges: [edge.id],
      });
      await until(() => ours.node("spec-node-a")?.title === "spec a, revised", "update applied");
      expect(ours.node("spec-node-a")?.confidence).toBe(0.95);
      expect(ours.node("spec-node-b")).toBeUndefined();
      expect(ours.graph.getEdge(edge.id)?.ocpDeleted).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      spec.close();
    }
  }, 60_000);

  it("subscribes to events and verifies the hub's signed ocp.event.notification", async () => {
    const spec = await connectSpecAgent(hub.url, `a2a://spec-events-${process.pid}`);
    try {
      const subscriptionId = "spec-sub-1";
      await spec.send("ocp.event.subscribe", "broadcast", {
        subscriptionId,
        eventTypes: ["build.*"],
        filters: { severity: "error" },
      });
      await ours.publishEvent("build.passed", { run: 1 }, "info"); // Filtered out.
      await ours.publishEvent("deploy.failed", { run: 2 }, "error"); // Another type.
      await ours.publishEvent("build.failed", { run: 3 }, "error");
      await until(() => spec.messages("ocp.event.notification").length > 0, "a notification");
      const notifications = spec.messages("ocp.event.notification");
      expect(notifications).toHaveLength(1);
      const [notification] = notifications;
      expect(notification?.from).toBe(spec.hub.id);
      expect(notification?.payload["subscriptionId"]).toBe(subscriptionId);
      expect(notification?.payload["event"]).toMatchObject({
        eventType: "build.failed",
        eventData: { run: 3 },
        source: ours.id,
      });
      expect(verifySigned(notification as Received, spec.hub.publicKey)).toBe(true);
      // A tampered copy does not verify: the check can fail.
      const forged = {
        ...(notification as Received),
        payload: { ...notification?.payload, subscriptionId: "x" },
      };
      expect(verifySigned(forged, spec.hub.publicKey)).toBe(false);
    } finally {
      spec.close();
    }
  }, 60_000);

  it("votes on our agent's proposal, and our agent counts the vote", async () => {
    const spec = await connectSpecAgent(hub.url, `a2a://spec-voter-${process.pid}`);
    try {
      const decided = ours.once("consensus");
      const counted: VoteMessage[] = [];
      ours.on("vote", (v) => counted.push(v));
      const proposalId = await ours.propose({
        topic: "adopt the spec agent's schema",
        proposal: { schema: "v2" },
        votingPeriod: 30,
        requiredVotes: 1,
        votingRule: "majority",
      });
      await until(() => spec.messages("ocp.consensus.propose").length > 0, "the proposal");
      const [proposal] = spec.messages("ocp.consensus.propose");
      expect(proposal?.payload).toMatchObject({ proposalId, votingRule: "majority" });
      await spec.send("ocp.consensus.vote", "broadcast", {
        proposalId,
        vote: "approve",
        reasoning: "matches §5.3.2",
        votedBy: spec.id,
      });
      const [decision] = await decided;
      expect(decision).toMatchObject({ proposalId, status: "achieved", outcome: "approved" });
      expect(decision.votes.approve).toBe(1);
      expect(counted.map((v) => v.from)).toEqual([spec.id]);
      await until(() => spec.messages("ocp.consensus.achieved").length > 0, "the announcement");
      expect(spec.messages("ocp.consensus.achieved")[0]?.payload).toMatchObject({
        proposalId,
        outcome: "approved",
        voters: [spec.id],
      });
    } finally {
      spec.close();
    }
  }, 60_000);

  it("is found by discovery, and finds our agent (§7.3, ocp.hub.discovery.query)", async () => {
    const spec = await connectSpecAgent(hub.url, `a2a://spec-card-${process.pid}`, {
      name: "spec agent",
      capabilities: {
        tasks: [],
        tools: [],
        protocols: ["a2a", "a2a+ocp"],
        ocp: { version: "1.0.0", features: ["knowledge_streaming", "event_publishing"] },
      },
      workspace: WORKSPACE,
    });
    try {
      const found = await ours.findAgents({
        protocols: ["a2a+ocp"],
        features: ["event_publishing"],
        workspace: WORKSPACE,
      });
      expect(found.agents.map((a) => a.id)).toEqual([spec.id]);
      expect(found.agents[0]?.name).toBe("spec agent");
      expect(found.unverified).toBe(0);
      const answer = await spec.discover({ features: ["consensus_voting"], workspace: WORKSPACE });
      expect(answer.truncated).toBe(false);
      const cards = answer.cards as Array<
        Record<string, unknown> & { id: string; publicKey: string }
      >;
      expect(cards.map((c) => c.id)).toEqual([ours.id]);
      expect(verifySigned(cards[0] as Record<string, unknown>, cards[0]?.publicKey ?? "")).toBe(
        true,
      );
      const none = await spec.discover({ features: ["consensus_voting"], workspace: "elsewhere" });
      expect(none.cards).toEqual([]);
    } finally {
      spec.close();
    }
  }, 60_000);

  it("reply_to: our answers to a collective query and an awareness query go to the named agent", async () => {
    const asker = await connectSpecAgent(hub.url, `a2a://spec-asker-${process.pid}`);
    const inbox = await connectSpecAgent(hub.url, `a2a://spec-inbox-${process.pid}`);
    try {
      await ours.streamKnowledge([
        {
          id: "reply-node",
          type: "code.solution",
          title: "retry with jitter",
          content: "exponential backoff with jitter avoids thundering herds",
          data: {},
          confidence: 0.9,
          timestamp: new Date().toISOString(),
          createdBy: ours.id,
          tags: ["retry"],
          visibility: "workspace",
        } as never,
      ]);
      const queryId = `spec-q-${process.pid}`;
      const queryMessageId = await asker.send(
        "ocp.collective.query",
        ours.id,
        { queryId, query: "retry jitter backoff", timeout: 10_000 },
        { reply_to: inbox.id },
      );
      const awarenessMessageId = await asker.send(
        "ocp.awareness.query",
        ours.id,
        { queryId: "spec-aq-1" },
        { reply_to: inbox.id },
      );
      await until(
        () =>
          inbox.messages("ocp.collective.response").length > 0 &&
          inbox.messages("ocp.awareness.response").length > 0,
        "both answers at the reply_to address",
      );
      const [response] = inbox.messages("ocp.collective.response");
      expect(response?.from).toBe(ours.id);
      expect(response?.["to"]).toBe(inbox.id);
      expect(response?.["correlation_id"]).toBe(queryMessageId);
      expect(response?.payload["queryId"]).toBe(queryId);
      const findings = response?.payload["findings"] as Array<{ node: { id: string } }>;
      expect(findings.map((f) => f.node.id)).toContain("reply-node");
      expect(inbox.messages("ocp.awareness.response")[0]?.payload["queryId"]).toBe("spec-aq-1");
      expect(inbox.messages("ocp.awareness.response")[0]?.["correlation_id"]).toBe(
        awarenessMessageId,
      );
      // Nothing went back to the asker.
      expect(asker.messages("ocp.collective.response")).toEqual([]);
      expect(asker.messages("ocp.awareness.response")).toEqual([]);
      // Sync pages too, holding only what both the asker and the reply_to agent may see.
      await ours.streamKnowledge([
        {
          id: "asker-only",
          type: "code.solution",
          title: "for the asker only",
          data: {},
          confidence: 0.9,
          timestamp: new Date().toISOString(),
          createdBy: ours.id,
          tags: [],
          visibility: "private",
          sharedWith: [asker.id],
        } as never,
      ]);
      const syncMessageId = await asker.send(
        "ocp.knowledge.sync.request",
        ours.id,
        { syncId: "spec-sync-1" },
        { reply_to: inbox.id },
      );
      await until(() => inbox.messages("ocp.knowledge.sync.response").length > 0, "sync pages");
      const pages = inbox.messages("ocp.knowledge.sync.response");
      expect(pages.every((p) => p["correlation_id"] === syncMessageId)).toBe(true);
      const synced = pages.flatMap((p) =>
        (p.payload["nodes"] as Array<{ id: string }>).map((n) => n.id),
      );
      expect(synced).toContain("reply-node");
      expect(synced).not.toContain("asker-only");
      expect(asker.messages("ocp.knowledge.sync.response")).toEqual([]);
      // A reply_to that is not an agent URI is ignored: the answer goes to the sender.
      const directMessageId = await asker.send(
        "ocp.awareness.query",
        ours.id,
        { queryId: "spec-aq-2" },
        { reply_to: "https://example.com/inbox" },
      );
      await until(() => asker.messages("ocp.awareness.response").length > 0, "answer to sender");
      expect(asker.messages("ocp.awareness.response")[0]?.payload["queryId"]).toBe("spec-aq-2");
      // correlation_id is set on every answer, with or without reply_to (issue 40).
      expect(asker.messages("ocp.awareness.response")[0]?.["correlation_id"]).toBe(directMessageId);
    } finally {
      asker.close();
      inbox.close();
    }
  }, 60_000);
});
