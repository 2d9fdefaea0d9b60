/**
 * What an operator of a team sees (issue 43), without a browser: a proposal
 * open until its proposer decides it, blocked agents counted only while
 * online (counts computed from the rows), and the hub's secure default
 * (content hidden) kept by `startDashboard`.
 */
import { request } from "node:http";
import { until } from "@ocp/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AgentView,
  type Dashboard,
  type DashboardHubEvent,
  isBlocked,
  type ObservableHub,
  type Snapshot,
  startDashboard,
  summarize,
} from "../src/index.js";
import { accepted, clock, node, teamState } from "./team-events.js";

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
      state.push({ kind: "agent.registered", at: clock.now, agentId: id });
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
      state.push({ kind: "agent.left", at: clock.now, agentId: id });
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
        subscriptions: 0,
        rejectedByCode: {},
        storeConnected: true,
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
