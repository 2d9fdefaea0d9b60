/**
 * What an operator of a team sees (issue 43), without a browser: a collective
 * query and its synthesis as they happen, a proposal open until its proposer
 * decides it, the nodes found for a query in the graph with their
 * contradictions linked, blocked agents counted only while online, and the
 * hub's secure default (content hidden) kept by `startDashboard`.
 */
import { request } from "node:http";
import { until } from "@ocp/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AgentView,
  type Dashboard,
  type DashboardHubEvent,
  DashboardState,
  isBlocked,
  type ObservableHub,
  type Snapshot,
  startDashboard,
  summarize,
} from "../src/index.js";

let clock = Date.parse("2026-01-01T00:00:00Z");
let next = 0;
const accepted = (
  from: string,
  type: string,
  payload: unknown,
  verified = true,
): DashboardHubEvent => ({
  kind: "message.accepted",
  at: clock,
  id: `m${++next}`,
  type,
  from,
  verified,
  payload,
  excluded: 0,
});

const node = (id: string, title: string, author: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: "fact",
  title,
  data: { secret: `data ${id}` },
  confidence: 0.9,
  timestamp: "2026-01-01T00:00:00Z",
  createdBy: author,
  tags: [],
  ...extra,
});

const JWT = "Authentication uses short-lived JWT access tokens";

function teamState(showAllVisibilities: boolean) {
  const state = new DashboardState(
    { showAllVisibilities, defaultVisibility: "workspace" },
    {},
    () => clock,
  );
  const push = (from: string, type: string, payload: unknown, verified = true) =>
    state.push(accepted(from, type, payload, verified));
  const ask = () =>
    push("a2a://alice", "ocp.collective.query", {
      queryId: "q1",
      query: "What's our approach to authentication?",
      timeout: 10_000,
      minResponses: 3,
    });
  const respond = (from: string, nodes: unknown[]) =>
    push(from, "ocp.collective.response", {
      queryId: "q1",
      findings: nodes.map((n) => ({ node: n, relevance: 0.8 })),
      confidence: 0.8,
      processingTime: 3,
    });
  const synthesize = (from = "a2a://alice") =>
    push(from, "ocp.collective.synthesis", {
      queryId: "q1",
      answer: `${JWT}: fifteen minutes`,
      keyPoints: [JWT],
      confidence: 0.8,
      consensus: [`${JWT} (a2a://bob, a2a://carol)`],
      dissent: ["Admin sessions (a2a://dave) contradicts JWT (a2a://bob)"],
      sources: ["a2a://bob", "a2a://carol", "a2a://dave"],
      timestamp: "2026-01-01T00:00:01Z",
    });
  return { state, push, ask, respond, synthesize };
}

describe("collective queries, live (§5.2)", () => {
  it("shows the question as collecting, each response as it arrives, then the asker's synthesis", () => {
    const { state, ask, respond, synthesize } = teamState(true);
    ask();
    let delta = state.flush();
    expect(delta?.queries).toEqual([
      expect.objectContaining({
        id: "q1",
        asker: "a2a://alice",
        query: "What's our approach to authentication?",
        status: "collecting",
        minResponses: 3,
        responses: [],
      }),
    ]);
    respond("a2a://bob", [node("bob-jwt", JWT, "a2a://bob")]);
    delta = state.flush();
    expect(delta?.queries?.[0]?.responses.map((r) => [r.from, r.findings, r.verified])).toEqual([
      ["a2a://bob", 1, true],
    ]);
    respond("a2a://carol", [node("carol-jwt", JWT, "a2a://carol")]);
    respond("a2a://dave", []);
    respond("a2a://dave", [node("dave-late", "twice", "a2a://dave")]); // a second answer: ignored
    respond("a2a://alice", [node("alice-own", "own", "a2a://alice")]); // the asker's own: ignored
    state.flush();
    expect(state.snapshot().queries[0]!.responses.map((r) => r.from)).toEqual([
      "a2a://bob",
      "a2a://carol",
      "a2a://dave",
    ]);
    expect(JSON.stringify(state.snapshot().graph)).not.toContain("alice-own");
    expect(JSON.stringify(state.snapshot().graph)).not.toContain("dave-late");
    synthesize();
    delta = state.flush();
    const query = delta?.queries?.[0];
    expect(query?.status).toBe("synthesized");
    expect(query?.synthesis).toMatchObject({
      from: "a2a://alice",
      answer: `${JWT}: fifteen minutes`,
      consensus: [`${JWT} (a2a://bob, a2a://carol)`],
      dissent: ["Admin sessions (a2a://dave) contradicts JWT (a2a://bob)"],
      sources: ["a2a://bob", "a2a://carol", "a2a://dave"],
      consensusCount: 1,
      dissentCount: 1,
    });
  });

  it("ignores a synthesis of the query sent by anyone but its asker", () => {
    const { state, ask, respond, synthesize } = teamState(true);
    ask();
    respond("a2a://bob", [node("bob-jwt", JWT, "a2a://bob")]);
    synthesize("a2a://mallory");
    state.flush();
    expect(state.snapshot().queries[0]).toMatchObject({ status: "collecting" });
    expect(state.snapshot().queries[0]!.synthesis).toBeUndefined();
  });

  it("withholds the synthesis text when a node it may be built from was withheld", () => {
    // The hub's default: nodes without a visibility are workspace, their content hidden.
    const { state, ask, respond, synthesize } = teamState(false);
    ask();
    respond("a2a://bob", [node("bob-jwt", JWT, "a2a://bob", { visibility: "public" })]);
    respond("a2a://dave", [node("dave-admin", "Admin console keeps sessions", "a2a://dave")]);
    synthesize();
    state.flush();
    const text = JSON.stringify(state.snapshot());
    expect(text).not.toContain("fifteen minutes");
    expect(text).not.toContain("Admin sessions");
    expect(text).not.toContain("Admin console keeps sessions");
    expect(state.snapshot().queries[0]!.synthesis).toMatchObject({
      consensusCount: 1,
      dissentCount: 1,
      sources: ["a2a://bob", "a2a://carol", "a2a://dave"],
    });
    expect(state.snapshot().queries[0]!.synthesis!.answer).toBeUndefined();

    // Every node shown (public or team): the synthesis built from them is shown too.
    const open = teamState(false);
    open.ask();
    open.respond("a2a://bob", [node("bob-jwt", JWT, "a2a://bob", { visibility: "team" })]);
    open.synthesize();
    open.state.flush();
    expect(open.state.snapshot().queries[0]!.synthesis!.answer).toBe(`${JWT}: fifteen minutes`);
  });

  it("keeps a query bounded: its text cut, at most 20 responses, points and sources", () => {
    const { state, push } = teamState(true);
    push("a2a://alice", "ocp.collective.query", {
      queryId: "q1",
      query: "why ".repeat(1_000),
      timeout: 10_000,
    });
    for (let i = 0; i < 30; i++) {
      push(`a2a://agent-${i}`, "ocp.collective.response", {
        queryId: "q1",
        findings: [],
        confidence: 0.5,
        processingTime: 1,
      });
    }
    const many = Array.from({ length: 50 }, (_, i) => `point ${i} ${"x".repeat(1_000)}`);
    push("a2a://alice", "ocp.collective.synthesis", {
      queryId: "q1",
      answer: "a".repeat(10_000),
      keyPoints: many,
      confidence: 0.5,
      consensus: many,
      dissent: many,
      sources: many,
      timestamp: "2026-01-01T00:00:01Z",
    });
    state.flush();
    const query = state.snapshot().queries[0]!;
    expect(query.query).toHaveLength(500);
    expect(query.responses).toHaveLength(20);
    const synthesis = query.synthesis!;
    expect(synthesis.answer).toHaveLength(500);
    for (const points of [synthesis.keyPoints!, synthesis.consensus!, synthesis.dissent!]) {
      expect(points).toHaveLength(20);
      expect(Math.max(...points.map((p) => p.length))).toBe(500);
    }
    expect(synthesis.sources).toHaveLength(20);
  });

  it("marks a query unanswered once its deadline has passed without a synthesis", () => {
    const { state, ask } = teamState(true);
    ask();
    state.flush();
    clock += 10_000 + 5_001;
    expect(state.flush()?.queries?.[0]?.status).toBe("unanswered");
    clock -= 15_001;
  });
});

describe("the knowledge a query brings up", () => {
  it("adds the nodes found to the graph and links a node to the ones its metadata.contradicts names", () => {
    const { state, ask, respond } = teamState(true);
    ask();
    respond("a2a://bob", [node("bob-jwt", JWT, "a2a://bob")]);
    respond("a2a://carol", [node("carol-jwt", JWT, "a2a://carol")]);
    respond("a2a://dave", [
      node("dave-admin", "Admin sessions", "a2a://dave", { metadata: { contradicts: JWT } }),
    ]);
    state.flush();
    const { graph, knowledge } = state.snapshot();
    expect(graph.nodes.map((n) => n.label)).toEqual(["⚠ Admin sessions", JWT, JWT]);
    expect(graph.edges).toEqual([
      { source: "dave-admin", target: "bob-jwt", relationship: "contradicts", contradiction: true },
      {
        source: "dave-admin",
        target: "carol-jwt",
        relationship: "contradicts",
        contradiction: true,
      },
    ]);
    expect(knowledge.map((k) => [k.kind, k.from, k.contradiction])).toEqual([
      ["response", "a2a://bob", false],
      ["response", "a2a://carol", false],
      ["response", "a2a://dave", true],
    ]);
  });

  it("draws no link to or from a node whose content is hidden (its title is not matched)", () => {
    const { state, ask, respond } = teamState(false);
    ask();
    respond("a2a://bob", [node("bob-jwt", JWT, "a2a://bob")]); // workspace: hidden
    respond("a2a://dave", [
      node("dave-admin", "Admin sessions", "a2a://dave", {
        visibility: "public",
        metadata: { contradicts: JWT },
      }),
    ]);
    state.flush();
    const { graph } = state.snapshot();
    expect(graph.nodes.map((n) => [n.id, n.hidden])).toEqual([
      ["dave-admin", false],
      ["bob-jwt", true],
    ]);
    expect(graph.edges).toEqual([]);
  });
});

describe("proposals (§5.3)", () => {
  const propose = (push: ReturnType<typeof teamState>["push"]) =>
    push("a2a://bob", "ocp.consensus.propose", {
      proposalId: "p1",
      topic: "Switch to PostgreSQL",
      proposal: {},
      votingPeriod: 60,
      requiredVotes: 3,
      votingRule: "majority",
    });

  it("grows the tally vote by vote and shows the outcome only when the proposer decides", () => {
    const { state, push } = teamState(true);
    propose(push);
    const seen: Array<[string, string, number, number]> = [];
    const record = () => {
      state.flush();
      const p = state.snapshot().proposals[0]!;
      seen.push([p.status, p.projected, p.tally.approve, p.tally.reject]);
    };
    record();
    for (const [voter, vote] of [
      ["a2a://alice", "approve"],
      ["a2a://carol", "approve"],
      ["a2a://dave", "reject"],
    ]) {
      push(voter!, "ocp.consensus.vote", { proposalId: "p1", vote, votedBy: voter });
      record();
    }
    // Another agent's word on the outcome is not the proposer's.
    push("a2a://mallory", "ocp.consensus.achieved", { proposalId: "p1", outcome: "rejected" });
    record();
    push("a2a://bob", "ocp.consensus.achieved", { proposalId: "p1", outcome: "approved" });
    record();
    expect(seen).toEqual([
      ["open", "open", 0, 0],
      ["open", "open", 1, 0],
      ["open", "open", 2, 0],
      ["open", "approved", 2, 1],
      ["open", "approved", 2, 1],
      ["approved", "approved", 2, 1],
    ]);
    // Decided once: a later word of the proposer does not change it.
    push("a2a://bob", "ocp.consensus.timeout", { proposalId: "p1", votes: {}, reason: "late" });
    record();
    expect(seen.at(-1)![0]).toBe("approved");
  });
});

describe("counts agree with the rows", () => {
  /** The counts, computed from the rows of a snapshot by what each row shows. */
  function fromRows(snapshot: Snapshot) {
    const rows = snapshot.agents;
    return {
      agents: rows.length,
      online: rows.filter((a) => a.presence === "online").length,
      away: rows.filter((a) => a.presence === "away").length,
      offline: rows.filter((a) => a.presence === "offline").length,
      connected: rows.filter((a) => a.presence !== "offline").length,
      blocked: rows.filter((a) => a.status === "blocked" && a.presence !== "offline").length,
      queries: snapshot.queries.length,
      queriesOpen: snapshot.queries.filter((q) => q.status === "collecting").length,
      proposals: snapshot.proposals.length,
      proposalsOpen: snapshot.proposals.filter((p) => p.status === "open").length,
    };
  }

  it("counts a blocked agent while it is online, and not once it has gone offline", () => {
    const { state, push, ask } = teamState(true);
    for (const id of ["a2a://alice", "a2a://bob", "a2a://carol", "a2a://dave"]) {
      state.push({ kind: "agent.registered", at: clock, agentId: id });
    }
    push("a2a://carol", "ocp.awareness.beacon", {
      status: "blocked",
      availability: "available",
      currentContext: { task: "Implement OAuth", blockedOn: "Waiting for API credentials" },
    });
    ask();
    state.flush();
    let snapshot = state.snapshot();
    const carol = snapshot.agents.find((a) => a.id === "a2a://carol")!;
    expect(carol).toMatchObject({ presence: "online", status: "blocked" });
    expect(isBlocked(carol)).toBe(true);
    let counts = summarize(snapshot.agents, snapshot.proposals, snapshot.queries);
    expect(counts).toEqual(fromRows(snapshot));
    expect(counts).toMatchObject({ agents: 4, connected: 4, blocked: 1, queries: 1 });

    for (const id of ["a2a://alice", "a2a://bob", "a2a://carol", "a2a://dave"]) {
      state.push({ kind: "agent.left", at: clock, agentId: id });
    }
    state.flush();
    snapshot = state.snapshot();
    counts = summarize(snapshot.agents, snapshot.proposals, snapshot.queries);
    expect(counts).toEqual(fromRows(snapshot));
    expect(counts).toMatchObject({ offline: 4, connected: 0, blocked: 0 });
    expect(snapshot.agents.filter(isBlocked as (a: AgentView) => boolean)).toEqual([]);
  });
});

describe("the hub's secure default", () => {
  const dashboards: Dashboard[] = [];
  afterEach(async () => {
    await Promise.all(dashboards.splice(0).map((d) => d.close()));
  });

  function hubWith(events: DashboardHubEvent[]): ObservableHub {
    return {
      observe(listener) {
        queueMicrotask(() => {
          for (const event of events) listener(event);
        });
        return () => {};
      },
      stats: () => ({
        connected: 0,
        known: 0,
        accepted: 0,
        rejected: 0,
        delivered: 0,
        committed: 0,
        slowConsumerCloses: 0,
        peakOutboundBytes: 0,
      }),
      connectedAgents: () => [],
    };
  }

  const snapshotOf = (dashboard: Dashboard) =>
    new Promise<string>((resolve, reject) => {
      request(`${dashboard.url}snapshot.json`, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve(body));
      })
        .on("error", reject)
        .end();
    });

  it("startDashboard hides the content of nodes without a visibility unless told to show all", async () => {
    const events = [
      accepted("a2a://alice", "ocp.knowledge.stream", {
        streamId: "s",
        nodes: [node("fix", "WebSocket memory leak fix", "a2a://alice")],
      }),
    ];
    const hidden = await startDashboard(hubWith(events), { flushIntervalMs: 10 });
    const shown = await startDashboard(hubWith(events), {
      flushIntervalMs: 10,
      showAllVisibilities: true,
    });
    dashboards.push(hidden, shown);
    await until(
      () => [hidden, shown].every((d) => d.state.snapshot().knowledge.length === 1),
      "both dashboards to read the stream",
    );
    const [withheld, visible] = await Promise.all([snapshotOf(hidden), snapshotOf(shown)]);
    expect(withheld).toContain('"id":"fix"');
    expect(withheld).not.toContain("WebSocket memory leak fix");
    expect(visible).toContain("WebSocket memory leak fix");
  });
});
