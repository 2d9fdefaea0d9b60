/**
 * Issue 44, "the dashboard shows the link and what crossed": the Federation
 * view of two organisations' real hubs linked in one process — each side's
 * peer (link up, agents vouched for, counts by code), a public node that
 * crossed, a team node withheld with its code, content redacted by the
 * dashboard's one rule, the link down once the peer closes; nothing of it
 * without the token; no Federation view on a hub that does not federate.
 */
import { request } from "node:http";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { tempDir, testHubOptions, until } from "@ocp/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type Dashboard,
  type FederationView,
  type Snapshot,
  startDashboard,
} from "../src/index.js";
import { linkedOrgs, node, type Org, streamNodes } from "./federation-support.js";

vi.setConfig({ testTimeout: 60_000 });

const TOKEN = "fed-board-token";
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function federationOf(dashboard: Dashboard): Promise<FederationView> {
  const reply = await get(`${dashboard.url}snapshot.json`, { authorization: `Bearer ${TOKEN}` });
  expect(reply.status).toBe(200);
  const snapshot = JSON.parse(reply.body) as Snapshot;
  expect(snapshot.federation).toBeDefined();
  return snapshot.federation!;
}

/** Polls the dashboard's snapshot until `check` holds; returns the last view. */
async function waitFor(
  dashboard: Dashboard,
  what: string,
  check: (view: FederationView) => boolean,
): Promise<FederationView> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const view = await federationOf(dashboard);
    if (check(view)) return view;
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within 15 s; last view ${JSON.stringify(view)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function boards(acme: Org, globex: Org) {
  const options = { token: TOKEN, flushIntervalMs: 20, sampleIntervalMs: 50 };
  const acmeBoard = await startDashboard(acme.hub, { ...options, federation: acme.federation });
  const globexBoard = await startDashboard(globex.hub, {
    ...options,
    federation: globex.federation,
  });
  cleanup.push(
    () => acmeBoard.close(),
    () => globexBoard.close(),
  );
  return { acmeBoard, globexBoard };
}

describe("the Federation view (issue 44)", () => {
  it("shows each side's peer with its link, the agents it vouched for, what crossed (content by the redaction rule) and what was withheld with its code; the link goes down when the peer closes", async () => {
    const { acme, globex } = await linkedOrgs();
    cleanup.push(
      () => acme.close(),
      () => globex.close(),
    );
    const { acmeBoard, globexBoard } = await boards(acme, globex);
    const alice = await acme.agent("alice");
    const bob = await globex.agent("bob");
    await waitFor(acmeBoard, "bob vouched to acme", (v) => v.peers[0]?.agents === 1);
    await waitFor(globexBoard, "alice vouched to globex", (v) => v.peers[0]?.agents === 1);

    const crossedId = await streamNodes(alice, bob.id.id, [
      node(alice.id.id, "fix-public", "public"),
    ]);
    const teamId = await streamNodes(alice, bob.id.id, [node(alice.id.id, "team-secret", "team")]);
    const workspaceId = await streamNodes(alice, bob.id.id, [
      node(alice.id.id, "workspace-secret", "workspace"),
    ]);
    await until(() => bob.raw.delivered().some((d) => d.includes("fix-public")), "bob has the fix");

    const sent = await waitFor(
      acmeBoard,
      "acme's crossings",
      (v) =>
        v.crossings.filter((c) => [crossedId, teamId, workspaceId].includes(c.id ?? "")).length >=
        3,
    );
    expect(sent.peers).toEqual([
      {
        hubId: globex.key.id,
        open: true,
        agents: 1,
        forwarded: 1,
        received: 0,
        refused: 2,
        refusedByCode: { federation_withheld: 2 },
      },
    ]);
    const crossed = sent.crossings.find((c) => c.id === crossedId)!;
    expect(crossed).toMatchObject({
      peer: globex.key.id,
      direction: "out",
      outcome: "crossed",
      from: alice.id.id,
      to: [globex.key.id],
      type: "ocp.knowledge.stream",
    });
    expect(crossed.nodes).toEqual([
      expect.objectContaining({ id: "fix-public", title: "fix-public title", hidden: false }),
    ]);
    const team = sent.crossings.find((c) => c.id === teamId)!;
    expect(team).toMatchObject({
      outcome: "refused",
      direction: "out",
      to: [bob.id.id],
      code: "federation_withheld",
    });
    expect(team.reason).toMatch(/team node .* never leaves its organisation/);
    // A workspace node's content stays hidden (the dashboard's default), even in a refusal row.
    const workspace = sent.crossings.find((c) => c.id === workspaceId)!;
    expect(workspace.code).toBe("federation_withheld");
    expect(workspace.nodes).toHaveLength(1);
    expect(workspace.nodes[0]).toMatchObject({ id: "workspace-secret", hidden: true });
    expect(workspace.nodes[0]!.title).toBeUndefined();
    expect(JSON.stringify(sent)).not.toContain("workspace-secret title");

    // The other organisation's dashboard: what arrived from acme, nothing of what was withheld.
    const arrived = await waitFor(
      globexBoard,
      "globex received",
      (v) => v.peers[0]?.received === 1,
    );
    expect(arrived.peers[0]).toMatchObject({ hubId: acme.key.id, open: true, refused: 0 });
    expect(arrived.crossings.map((c) => [c.direction, c.outcome, c.id, c.from])).toEqual([
      ["in", "crossed", crossedId, alice.id.id],
    ]);
    expect(arrived.crossings[0]!.to).toEqual([bob.id.id]);
    expect(JSON.stringify(arrived)).not.toContain("secret");

    await globex.close();
    const down = await waitFor(acmeBoard, "the link down", (v) => v.peers[0]?.open === false);
    expect(down.peers[0]!.hubId).toBe(globex.key.id);
  });

  it("a request without the token gets nothing of the Federation view (401, no peer, no crossing)", async () => {
    const { acme, globex } = await linkedOrgs();
    cleanup.push(
      () => acme.close(),
      () => globex.close(),
    );
    const { acmeBoard } = await boards(acme, globex);
    await waitFor(acmeBoard, "the link", (v) => v.peers[0]?.open === true);
    for (const path of ["snapshot.json", "events", "?token=wrong"]) {
      const reply = await get(`${acmeBoard.url}${path}`);
      expect(reply.status).toBe(401);
      expect(reply.body).not.toContain(globex.key.id);
    }
    const wrong = await get(`${acmeBoard.url}snapshot.json`, { authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toContain("federation");
  });

  it("a hub without federation has no Federation view", async () => {
    const temp = tempDir();
    const hub = await OCPHub.start(testHubOptions(temp.dir));
    const dashboard = await startDashboard(hub, { token: TOKEN });
    cleanup.push(async () => {
      await dashboard.close();
      await hub.close();
      temp.cleanup();
    });
    const reply = await get(`${dashboard.url}snapshot.json`, { authorization: `Bearer ${TOKEN}` });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).not.toHaveProperty("federation");
  });
});
