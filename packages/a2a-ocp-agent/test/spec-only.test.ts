import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HubClient } from "@ocp/a2a-ocp-client";
import { OCPHub } from "@ocp/a2a-ocp-hub";
import { generateIdentity } from "@ocp/a2a-ocp-messaging";
import { tempDir, testHubOptions } from "@ocp/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCPAgent } from "../src/agent.js";
import { hubLink } from "../src/hub-link.js";
import { connectSpecAgent } from "./spec-only/spec-agent.js";
import { until } from "./support.js";

const tmp = tempDir("ocp-spec-only-");
let hub: OCPHub;
let ours: OCPAgent;

beforeAll(async () => {
  hub = await OCPHub.start(testHubOptions(tmp.dir));
  const identity = generateIdentity(`a2a://ours-${process.pid}`);
  const client = await HubClient.connect({ url: hub.url, identity, reconnect: false });
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
});
