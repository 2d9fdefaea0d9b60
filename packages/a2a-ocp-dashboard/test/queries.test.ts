/**
 * Collective queries as an operator sees them (issue 43), without a browser:
 * the question, each response as it arrives, the asker's synthesis (withheld
 * when built from withheld nodes), and the nodes found, with their
 * contradictions linked, in the knowledge graph.
 */
import { describe, expect, it } from "vitest";
import { clock, JWT, node, teamState } from "./team-events.js";

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
    clock.now += 10_000 + 5_001;
    expect(state.flush()?.queries?.[0]?.status).toBe("unanswered");
    clock.now -= 15_001;
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
