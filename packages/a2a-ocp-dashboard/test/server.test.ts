/**
 * The dashboard server without a browser: the loopback/token rule, read-only
 * HTTP, the rebinding guard, SSE pushes, and what the model shows of
 * knowledge nodes by visibility and of votes by verification.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  type Dashboard,
  type DashboardHubEvent,
  DashboardState,
  startDashboard,
} from "../src/index.js";
import { fakeHub } from "./fake-hub.js";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(
  url: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", headers: init.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const dashboards: Dashboard[] = [];
afterEach(async () => {
  await Promise.all(dashboards.splice(0).map((d) => d.close()));
});

describe("who may read the dashboard", () => {
  it("refuses to serve off loopback without a token", async () => {
    await expect(startDashboard(fakeHub(), { host: "0.0.0.0" })).rejects.toThrow(/token/);
    await expect(startDashboard(fakeHub(), { host: "0.0.0.0", token: "" })).rejects.toThrow(
      /token/,
    );
  });

  it("off loopback with a token, serves only requests that carry it", async () => {
    const dashboard = await startDashboard(fakeHub(), { host: "0.0.0.0", token: "s3cret" });
    dashboards.push(dashboard);
    const base = `http://127.0.0.1:${dashboard.port}/`;
    expect((await get(base)).status).toBe(401);
    expect((await get(`${base}events`)).status).toBe(401);
    expect((await get(`${base}?token=wrong`)).status).toBe(401);
    const first = await get(`${base}?token=s3cret`);
    expect(first.status).toBe(200);
    const cookie = String(first.headers["set-cookie"]);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const viaCookie = await get(`${base}app.js`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(viaCookie.status).toBe(200);
    const viaHeader = await get(`${base}snapshot.json`, {
      headers: { authorization: "Bearer s3cret" },
    });
    expect(viaHeader.status).toBe(200);
    expect(JSON.parse(viaHeader.body)).toHaveProperty("agents");
  });

  it("on loopback, serves this machine but refuses another Host (DNS rebinding) and writes", async () => {
    const dashboard = await startDashboard(fakeHub());
    dashboards.push(dashboard);
    expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get(dashboard.url);
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toMatch(/default-src 'none'/);
    expect(page.body).toContain("app.js");
    expect(page.body).not.toMatch(/https?:\/\//); // nothing from a CDN
    expect((await get(dashboard.url, { headers: { host: "evil.example" } })).status).toBe(421);
    expect((await get(dashboard.url, { method: "POST" })).status).toBe(405);
    expect((await get(dashboard.url, { method: "DELETE" })).status).toBe(405);
  });
});

describe("requests of another origin", () => {
  it("refuses the data endpoints to a page of another origin (403), serves its own page", async () => {
    const dashboard = await startDashboard(fakeHub());
    dashboards.push(dashboard);
    const own = `127.0.0.1:${dashboard.port}`;
    for (const path of ["snapshot.json", "events"]) {
      for (const headers of <Record<string, string>[]>[
        { origin: "https://evil.example" },
        { origin: "http://127.0.0.1:1" },
        { origin: "null" },
        { "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" },
        { "sec-fetch-site": "same-site", "sec-fetch-mode": "no-cors" },
      ]) {
        const reply = await get(`${dashboard.url}${path}`, { headers });
        expect(reply.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(reply.body).not.toContain("agents");
      }
    }
    const ownOrigin = await get(`${dashboard.url}snapshot.json`, {
      headers: { origin: `http://${own}`, "sec-fetch-site": "same-origin" },
    });
    expect(ownOrigin.status).toBe(200);
    expect((await get(`${dashboard.url}snapshot.json`)).status).toBe(200); // no browser headers
    // A link from another site still opens the page itself.
    const navigated = await get(dashboard.url, {
      headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
    });
    expect(navigated.status).toBe(200);
  });
});

describe("live updates", () => {
  it("pushes a snapshot, then each change, over Server-Sent Events", async () => {
    const hub = fakeHub();
    const dashboard = await startDashboard(hub, { flushIntervalMs: 20 });
    dashboards.push(dashboard);
    const received: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const req = request(`${dashboard.url}events`, (res) => {
        expect(res.headers["content-type"]).toBe("text/event-stream");
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          received.push(chunk);
          if (received.join("").includes("a2a://carol")) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on("error", (error) =>
        received.join("").includes("a2a://carol") ? resolve() : reject(error),
      );
      req.end();
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    hub.emit({ kind: "agent.registered", at: Date.now(), agentId: "a2a://carol" });
    await done;
    const text = received.join("");
    expect(text.indexOf("event: snapshot")).toBeLessThan(text.indexOf("a2a://carol"));
    expect(text).toMatch(/event: delta\ndata: .*a2a:\/\/carol/);
  }, 20_000);
});

const node = (id: string, visibility: string | undefined) => ({
  id,
  type: "fact",
  title: `secret title ${id}`,
  data: { secret: `data ${id}` },
  confidence: 0.9,
  timestamp: "2026-01-01T00:00:00Z",
  createdBy: "a2a://alice",
  tags: [],
  metadata: { domain: `domain-${id}` },
  ...(visibility === undefined ? {} : { visibility }),
});

const stream = (nodes: unknown[]): Extract<DashboardHubEvent, { kind: "message.accepted" }> => ({
  kind: "message.accepted",
  at: Date.now(),
  id: "m1",
  type: "ocp.knowledge.stream",
  from: "a2a://alice",
  verified: true,
  payload: { streamId: "s", nodes, isIncremental: false, sequenceNumber: 0 },
  recipients: 2,
  excluded: 1,
  durable: true,
});

describe("what the model shows", () => {
  it("never shows content of a node that is not public or team, unless enabled", () => {
    const nodes = [
      node("pub", "public"),
      node("team", "team"),
      node("ws", "workspace"),
      node("priv", "private"),
      node("none", undefined),
      node("odd", "galaxy"),
    ];
    const state = new DashboardState({
      showAllVisibilities: false,
      defaultVisibility: "workspace",
    });
    state.push(stream(nodes));
    state.flush();
    const text = JSON.stringify(state.snapshot());
    for (const shown of ["pub", "team"]) expect(text).toContain(`secret title ${shown}`);
    for (const hidden of ["ws", "priv", "none", "odd"]) {
      expect(text).not.toContain(`secret title ${hidden}`);
      expect(text).not.toContain(`domain-${hidden}`);
    }
    expect(text).not.toContain("data "); // node data is never shown
    expect(state.snapshot().health.refusalsByReason["visibility-excluded"]).toBe(1);

    const all = new DashboardState({ showAllVisibilities: true, defaultVisibility: "workspace" });
    all.push(stream(nodes));
    all.flush();
    const everything = JSON.stringify(all.snapshot());
    for (const id of ["ws", "priv", "none"]) expect(everything).toContain(`secret title ${id}`);
    expect(everything).not.toContain("secret title odd"); // not a visibility level: fail closed
  });

  it("marks contradictions and keeps the graph bounded, most recent first", () => {
    const state = new DashboardState(
      { showAllVisibilities: false, defaultVisibility: "workspace" },
      { graphNodes: 3 },
    );
    const contra = { ...node("c", "public"), metadata: { contradicts: "secret title pub" } };
    state.push(stream([node("a", "public"), node("b", "public")]));
    state.push({
      ...stream([contra]),
      payload: {
        streamId: "s",
        nodes: [contra],
        edges: [{ id: "e", source: "c", target: "b", relationship: "contradicts", weight: 1 }],
      },
    });
    state.push(stream([node("d", "private")]));
    state.flush();
    const { graph, knowledge } = state.snapshot();
    expect(graph.nodes.map((n) => n.id)).toEqual(["d", "c", "b"]);
    expect(graph.nodes[0]).toMatchObject({ label: "(private)", hidden: true });
    expect(graph.nodes[1]!.label).toBe("⚠ secret title c");
    expect(graph.edges).toEqual([
      { source: "c", target: "b", relationship: "contradicts", contradiction: true },
    ]);
    expect(knowledge.map((k) => k.contradiction)).toEqual([false, true, false]);
  });

  it("withholds the relationship of an edge that touches a node whose content is hidden", () => {
    const edges = [
      { id: "e1", source: "p1", target: "p2", relationship: "secret relation p1-p2" },
      { id: "e2", source: "pub", target: "p1", relationship: "secret relation pub-p1" },
      { id: "e3", source: "pub", target: "team", relationship: "depends on" },
      { id: "e4", source: "p2", target: "p1", relationship: "contradicts secretly" },
    ];
    const nodes = [
      node("p1", "private"),
      node("p2", "workspace"),
      node("pub", "public"),
      node("team", "team"),
    ];
    const edgeStream = (policy: { showAllVisibilities: boolean }) => {
      const state = new DashboardState({ ...policy, defaultVisibility: "workspace" });
      state.push({ ...stream(nodes), payload: { streamId: "s", nodes, edges } });
      const delta = JSON.stringify(state.flush());
      return { state, delta };
    };
    const { state, delta } = edgeStream({ showAllVisibilities: false });
    const snapshot = state.snapshot();
    for (const text of [JSON.stringify(snapshot), delta]) {
      expect(text).not.toContain("secret relation");
      expect(text).not.toContain("secretly");
    }
    expect(snapshot.graph.edges).toEqual([
      { source: "p1", target: "p2", relationship: "", contradiction: false },
      { source: "pub", target: "p1", relationship: "", contradiction: false },
      { source: "pub", target: "team", relationship: "depends on", contradiction: false },
      { source: "p2", target: "p1", relationship: "", contradiction: false },
    ]);
    const all = edgeStream({ showAllVisibilities: true }).state.snapshot();
    expect(all.graph.edges.map((e) => e.relationship)).toEqual(edges.map((e) => e.relationship));
    expect(all.graph.edges[3]!.contradiction).toBe(true);
  });

  it("counts verified votes only, projects the outcome by the agents' rules, and is decided by the proposer", () => {
    const state = new DashboardState({
      showAllVisibilities: false,
      defaultVisibility: "workspace",
    });
    const at = Date.now();
    const msg = (from: string, type: string, payload: unknown, verified = true) =>
      state.push({
        kind: "message.accepted",
        at,
        id: `${from}-${type}`,
        type,
        from,
        verified,
        payload,
        excluded: 0,
        durable: true,
      });
    msg("a2a://bob", "ocp.consensus.propose", {
      proposalId: "p1",
      topic: "Switch",
      votingPeriod: 60,
      requiredVotes: 2,
      votingRule: "majority",
    });
    msg("a2a://alice", "ocp.consensus.vote", { proposalId: "p1", vote: "approve" });
    msg("a2a://mallory", "ocp.consensus.vote", { proposalId: "p1", vote: "reject" }, false);
    state.flush();
    let [p] = state.snapshot().proposals;
    expect(p).toMatchObject({ status: "open", tally: { approve: 1, reject: 0 } });
    expect(p!.votes.map((v) => [v.voter, v.verified])).toEqual([
      ["a2a://alice", true],
      ["a2a://mallory", false],
    ]);
    msg("a2a://carol", "ocp.consensus.vote", { proposalId: "p1", vote: "approve" });
    state.flush();
    [p] = state.snapshot().proposals;
    // The quorum is met and the votes say approved, but only the proposer decides.
    expect(p).toMatchObject({ status: "open", projected: "approved", tally: { approve: 2 } });
    msg("a2a://bob", "ocp.consensus.achieved", { proposalId: "p1", outcome: "approved" });
    state.flush();
    [p] = state.snapshot().proposals;
    expect(p).toMatchObject({ status: "approved", projected: "approved" });
  });
});

describe("the store's health (issue 46)", () => {
  it("shows the hub's store as reachable until the first sample, and unreachable while its stats say so", () => {
    const state = new DashboardState({
      showAllVisibilities: false,
      defaultVisibility: "workspace",
    });
    expect(state.snapshot().health.storeConnected).toBe(true); // Not sampled yet.
    const stats = fakeHub().stats();
    state.sample({ ...stats, storeConnected: false });
    expect(state.snapshot().health.storeConnected).toBe(false);
    state.sample({ ...stats, storeConnected: true });
    expect(state.snapshot().health.storeConnected).toBe(true);
  });
});
